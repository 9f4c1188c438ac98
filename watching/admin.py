from django.contrib import admin

from watching.models import Follow


@admin.register(Follow)
class FollowAdmin(admin.ModelAdmin):
    list_display = ("user", "game", "created_at", "told_seq", "last_digest_at")
    list_select_related = ("user", "game")
    raw_id_fields = ("user", "game")
