from django.urls import path

from community import views

app_name = "community"

urlpatterns = [
    path("tables/", views.open_tables_page, name="open_tables"),
    path("tables/join/", views.join_posted, name="join_posted"),
    path("tables/<int:number>/join/", views.join, name="join"),
]
