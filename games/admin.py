"""Admin: games and seats for support; the log (events, commands) strictly read-only."""

from django.contrib import admin
from django.db import transaction

from games.models import Command, Event, Game, Seat, Snapshot, TableChannel
from games.play.table import table_channel_stopped


class ReadOnlyAdmin(admin.ModelAdmin):
    """Nothing can be added, changed or deleted here: the log is append-only."""

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


class SeatInline(admin.TabularInline):
    model = Seat
    fields = ("position", "colour", "email", "is_bot", "token")
    readonly_fields = ("position", "colour", "is_bot", "token")
    extra = 0
    can_delete = False

    def has_add_permission(self, request, obj=None):
        return False


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    list_display = ("id", "status", "winner", "player_count", "setup", "created_at")
    list_filter = ("status", "setup")
    # The seed is secret until the end of the game: staff see it only through `revealed_seed`.
    fields = (
        "status",
        "winner",
        "player_count",
        "setup",
        "options",
        "position",
        "seed_commitment",
        "revealed_seed",
        "created_at",
    )
    readonly_fields = fields
    inlines = [SeatInline]

    def has_add_permission(self, request):
        return False  # games are created by the create_game service (manage.py create_game)

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(Event)
class EventAdmin(ReadOnlyAdmin):
    list_display = ("game", "seq", "type", "version", "visibility", "recorded_at")
    list_filter = ("type",)
    readonly_fields = [f.name for f in Event._meta.fields]


@admin.register(Command)
class CommandAdmin(ReadOnlyAdmin):
    list_display = ("game", "first_seq", "last_seq", "seat", "command_id", "accepted_at")
    readonly_fields = [f.name for f in Command._meta.fields]


@admin.register(Snapshot)
class SnapshotAdmin(ReadOnlyAdmin):
    list_display = ("game", "seq", "created_at")
    readonly_fields = ("game", "seq", "created_at")
    exclude = ("state",)  # the full state holds every hand

    def has_delete_permission(self, request, obj=None):
        return True  # a cache: deleting snapshots is always safe


@admin.register(TableChannel)
class TableChannelAdmin(admin.ModelAdmin):
    """The chat addresses hosts set for their games' public news: seen and removed here (a host
    who asks, an address that misbehaves); set only by the host, on the table's page."""

    list_display = ("game", "language", "created_at")
    fields = ("game", "url", "language", "created_at")
    readonly_fields = fields

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    # Django's delete hooks (the delete page, and the list's "delete selected" action): the
    # game's history says the operator stopped the news (docs/notifications.md, "Your table's
    # chat"), as it says when the host removes the channel.
    def delete_model(self, request, obj):
        """Remove `obj` through `table.table_channel_stopped` (by "operator")."""
        table_channel_stopped(game=obj.game, by="operator")

    def delete_queryset(self, request, queryset):
        """Remove each channel of `queryset` as `delete_model` does, in order of game (the
        order the game rows are locked in)."""
        with transaction.atomic():
            for channel in queryset.select_related("game").order_by("game_id"):
                table_channel_stopped(game=channel.game, by="operator")
