"""Your data (docs/privacy.md): the download of a person's archive, and the page that erases an
account, reached by a link that expires.

`my_data` (signed in): the zip of the signed-in account's data (`players.archive`).
`my_data_link`: the same zip, for the link answering a "my data" email
(`players.signed_tokens.my_data_token`, MY_DATA_LINK_DAYS days): it downloads that account's
archive and does nothing else (it signs nobody in).

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
from players.signed_tokens import (
    ERASURE_LINK_HOURS,
    MY_DATA_LINK_DAYS,
    BadToken,
    check_erasure_token,
    check_my_data_token,
    erasure_token_user,
    my_data_token_user,
)

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
    return _archive(int(request.user.pk or 0))


@require_GET
def my_data_link(request: HttpRequest, token: str) -> HttpResponse:
    """GET: the archive of the account a "my data" link names (`my_data_token`), whoever holds
    the link, signing nobody in. 400 for a damaged, forged or expired link (a page that says
    how to get another); 410 for an account erased or closed."""
    try:
        user_id = my_data_token_user(token)
    except BadToken as error:
        return _data_refused(request, error)
    user = get_user_model().objects.filter(pk=user_id, is_active=True).first()
    if user is None or not user.email or is_erased(user_id):
        reason = _("This account no longer exists: there is no data to download.")
        return render(request, "403.html", {"reason": reason}, status=410)
    try:
        check_my_data_token(token, email=user.email)
    except BadToken as error:
        return _data_refused(request, error)
    return _archive(user_id)


def _data_refused(request: HttpRequest, error: BadToken) -> HttpResponse:
    if error.reason == "expired":
        reason = _(
            "This link ran out ({days} days after it was made): write “my data” to us again for a new "
            "one, or download your data from your preferences page, signed in."
        ).format(days=MY_DATA_LINK_DAYS)
    else:
        reason = _(
            "This link was not made by this site for this account, or it was cut: write “my data” to us "
            "again for a new one, or download your data from your preferences page, signed in."
        )
    return render(request, "403.html", {"reason": reason}, status=400)


def _archive(user_id: int) -> HttpResponse:
    """The zip of account `user_id`'s data, as a download."""
    response = HttpResponse(build_archive(user_id), content_type="application/zip")
    response["Content-Disposition"] = 'attachment; filename="inis-my-data.zip"'
    return response
