"""The operator's lists in Django's admin: reports of players and of table-talk messages."""

from django.contrib import admin

from community.models import Report


@admin.register(Report)
class ReportAdmin(admin.ModelAdmin):
    """Reports, newest first: who reported, whom, the game and the message's words, the reason."""

    list_display = ("created_at", "status", "reporter", "reported", "game_id", "message_text", "reason")
    list_filter = ("status",)
    list_select_related = ("reporter", "reported")
    raw_id_fields = ("reporter", "reported")
    readonly_fields = (
        "reporter",
        "reported",
        "game_id",
        "message_number",
        "message_text",
        "reason",
        "created_at",
    )
    search_fields = ("reason", "message_text")
