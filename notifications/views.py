"""The development mailbox pages: every stored email, each readable. 404 unless the development
mailbox backend is the active EMAIL_BACKEND (so they never exist in production)."""
from __future__ import annotations

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render

from notifications.models import DevEmail


def _require_dev_mailbox() -> None:
    if settings.EMAIL_BACKEND != settings.DEV_MAILBOX_BACKEND:
        raise Http404("The development mailbox is not in use.")


def mailbox(request: HttpRequest) -> HttpResponse:
    _require_dev_mailbox()
    return render(request, "notifications/mailbox_list.html", {"emails": DevEmail.objects.all()[:500]})


def mailbox_detail(request: HttpRequest, email_id: int) -> HttpResponse:
    _require_dev_mailbox()
    email = get_object_or_404(DevEmail, pk=email_id)
    return render(request, "notifications/mailbox_detail.html", {"email": email})
