from django.contrib import admin, messages

from notifications import outbox
from notifications.models import DevEmail, Outbox


@admin.register(Outbox)
class OutboxAdmin(admin.ModelAdmin):
    list_display = (
        "id",
        "game",
        "seat",
        "kind",
        "channel",
        "seq",
        "status",
        "attempts",
        "retry_at",
        "created_at",
        "sent_at",
    )
    list_filter = ("status", "kind", "channel")
    readonly_fields = [f.name for f in Outbox._meta.fields]
    actions = ["send_again"]

    def has_add_permission(self, request):
        return False

    @admin.action(description="Send the selected failed messages again", permissions=["change"])
    def send_again(self, request, queryset):
        """Make the selected FAILED rows PENDING and deliver them (`notifications.outbox.send_again`);
        any other row is left as it is, and the operator is told how many of each."""
        selected = list(queryset.values_list("pk", flat=True))
        again = outbox.send_again(selected)
        if again:
            self.message_user(request, f"{again} failed message(s) will be sent again.", messages.SUCCESS)
        if len(selected) > again:
            self.message_user(
                request,
                f"{len(selected) - again} selected message(s) had not failed and were left as they are.",
                messages.WARNING,
            )


@admin.register(DevEmail)
class DevEmailAdmin(admin.ModelAdmin):
    list_display = ("id", "subject", "created_at")
    readonly_fields = [f.name for f in DevEmail._meta.fields]

    def has_add_permission(self, request):
        return False
