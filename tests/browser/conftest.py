"""Browser tests: Playwright driving Debian's Chromium (/usr/bin/chromium) against the live server.

Playwright's own browser download does not work on these machines, so the browser is the Debian
package (`.ci/run` installs it when missing). Screenshots go to test-artifacts/ (git-ignored).

The pages run under the site's Content-Security-Policy (`script-src 'self'`, docs/security.md):
give `page.wait_for_function` a function ("() => document.title…"), not a bare expression,
which Playwright evaluates with `eval`, refused by the policy.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

# Playwright's sync API runs an event loop in this thread, and Django refuses ORM calls from a
# thread with a running loop unless told it is safe: here the test's ORM calls never overlap a
# browser call (the sync API blocks until each call is done).
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"


@pytest.fixture(scope="session")
def browser():
    if not os.path.exists(CHROMIUM):
        pytest.fail(f"{CHROMIUM} is missing: apt-get install -y chromium (.ci/run does)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture
def site(live_server, settings):
    """The live server's address; emailed links point at it."""
    settings.SITE_URL = live_server.url
    settings.ALLOWED_HOSTS = ["*"]
    return live_server.url


@pytest.fixture
def new_context(browser):
    """new_context(phone=False) -> a fresh browser context (its own cookies: another person)."""
    contexts = []

    def make(phone: bool = False):
        context = browser.new_context(
            viewport={"width": 390, "height": 844} if phone else {"width": 1280, "height": 900},
            device_scale_factor=1,
        )
        # A move posted from the page returns once the service has played it, bots' answers
        # included: seconds when CI's workers share two cores (20 s once ran out there).
        context.set_default_timeout(45_000)
        contexts.append(context)
        return context

    yield make
    for context in contexts:
        context.close()


@pytest.fixture
def shoot():
    """shoot(page, name): save a full-page screenshot as test-artifacts/<name>.png."""

    def save(page, name: str) -> Path:
        ARTIFACTS.mkdir(exist_ok=True)
        path = ARTIFACTS / f"{name}.png"
        page.screenshot(path=str(path), full_page=True)
        return path

    return save


@pytest.fixture
def email_link(site):
    """email_link(to, subject_part) -> the first link to the site in the latest such email."""
    from django.core import mail

    def find(to: str, subject_part: str) -> str:
        for message in reversed(mail.outbox):
            if to in message.to and subject_part in message.subject:
                match = re.search(re.escape(site) + r"/\S*", message.body)
                assert match, f"no link to {site} in {message.subject!r}"
                return match.group(0)
        raise AssertionError(
            f"no email to {to} about {subject_part!r}: {[(m.to, m.subject) for m in mail.outbox]}"
        )

    return find


def send(page, button) -> None:
    """Click a decision form's `button` (a locator) and, when the page asks to confirm the move
    (a move that ends the turn or starts a fight: static/live.js's dialog), confirm it."""
    # The dialog is the page's script's (deferred): a click before it has run submits at once.
    # A page reached by a click the test did not wait for may still be loading on a busy machine.
    page.wait_for_load_state("load")
    # Whether the page asks is in its markup (the form's data-confirm, the page's setting), not in
    # how soon a dialog shows: on a loaded machine it may take seconds.
    asks = button.evaluate(
        """(b) => {
            const settings = document.getElementById("confirm-moves");
            return !!(b.form && b.form.matches("form[data-confirm]") && settings &&
                settings.getAttribute("data-confirm-moves") === "1" && window.HTMLDialogElement &&
                !b.form.querySelector("input[name=confirmed]"));
        }"""
    )
    if not asks:
        with page.expect_navigation():
            button.click()
        return
    button.click()
    dialog = page.locator("dialog.confirm-move")
    dialog.wait_for(state="visible")
    with page.expect_navigation():
        dialog.locator("button").first.click()


def follow(page, link) -> None:
    """Click `link` (a locator) and wait until the page it leads to has loaded: a click alone
    returns once the navigation starts, and the old page may still answer the next query."""
    with page.expect_navigation():
        link.click()
