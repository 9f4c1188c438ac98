from django.contrib import admin

from notifications.models import DevEmail, Outbox


@admin.register(Outbox)
class OutboxAdmin(admin.ModelAdmin):
    list_display = ("id", "game", "seat", "kind", "seq", "status", "attempts", "created_at", "sent_at")
    list_filter = ("status", "kind")
    readonly_fields = [f.name for f in Outbox._meta.fields]

    def has_add_permission(self, request):
        return False


@admin.register(DevEmail)
class DevEmailAdmin(admin.ModelAdmin):
    list_display = ("id", "subject", "created_at")
    readonly_fields = [f.name for f in DevEmail._meta.fields]

    def has_add_permission(self, request):
        return False
