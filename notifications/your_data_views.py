"""Your data (docs/privacy.md): the download of a person's archive, and the page that erases an
account, reached by a link that expires.

`my_data` (signed in): the zip of the signed-in account's data (`players.archive`).

The preferences page gives a player signed in as its owner a link to it
(`players.signed_tokens.erasure_token`, ERASURE_LINK_HOURS hours). GET says what will be
removed and what stays; POST erases (`players.erasure.erase_account`) and signs the browser
out. A damaged, forged or expired link, or an account erased already, gets a page that says so
and what to do; nothing is erased then.
"""

from __future__ import annotations

from django.contrib.auth import get_user_model, logout
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods

from players.archive import build_archive
from players.erasure import ErasureRefused, erase_account, is_erased
from players.signed_tokens import ERASURE_LINK_HOURS, BadToken, check_erasure_token, erasure_token_user

TEMPLATE = "notifications/erase.html"


def _refused(request: HttpRequest, reason: str, status: int) -> HttpResponse:
    return render(request, TEMPLATE, {"refused": reason}, status=status)


def _reason(error: BadToken) -> str:
    if error.reason == "expired":
        return _(
            "This link ran out ({hours} hours after it was made): open your preferences page again, "
            "signed in, for a new one. Nothing was erased."
        ).format(hours=ERASURE_LINK_HOURS)
    return _(
        "This link was not made by this site for this account, or it was cut: open your preferences "
        "page, signed in, and use the link there. Nothing was erased."
    )


@require_http_methods(["GET", "POST"])
def erase(request: HttpRequest, token: str) -> HttpResponse:
    """GET: what erasing the account of `token` removes and keeps, and the button. POST: erase
    it. 400 for a damaged, forged or expired link, 410 for an account erased already."""
    try:
        user_id = erasure_token_user(token)
    except BadToken as error:
        return _refused(request, _reason(error), 400)
    user = get_user_model().objects.filter(pk=user_id).first()
    if user is None or is_erased(user_id):
        return _refused(request, _("This account was erased already: there is nothing left to erase."), 410)
    try:
        check_erasure_token(token, email=user.email)
    except BadToken as error:
        return _refused(request, _reason(error), 400)
    if request.method == "GET":
        return render(request, TEMPLATE, {"email": user.email})
    try:
        erase_account(user_id)
    except ErasureRefused as refused:
        return _refused(request, str(refused), 410)
    if request.user.is_authenticated and request.user.pk == user_id:
        logout(request)
    return render(request, TEMPLATE, {"done": True})


@login_required
@require_GET
def my_data(request: HttpRequest) -> HttpResponse:
    """GET: the signed-in account's archive, a zip (`players.archive.build_archive`): only one's
    own data, so only for the account signed in."""
    archive = build_archive(int(request.user.pk or 0))
    response = HttpResponse(archive, content_type="application/zip")
    response["Content-Disposition"] = 'attachment; filename="inis-my-data.zip"'
    return response
