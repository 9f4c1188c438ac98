#!/usr/bin/env python
"""Django's command-line utility; see docs/management-commands.md for the game commands."""

import os
import sys

# Commands a mail server runs on each message it receives (docs/operations.md, "Inbound mail"):
# whatever of ours fails before they start (settings that cannot be loaded) exits 75, EX_TEMPFAIL,
# so that the mail server keeps the message and tries again, never bouncing the player's reply.
PIPED_COMMANDS = ("receive_email",)
EX_TEMPFAIL = 75


def main() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "inis_pbem.settings")
    from django.core.management import execute_from_command_line

    if sys.argv[1:2] and sys.argv[1] in PIPED_COMMANDS:
        import django

        try:
            django.setup()
        except Exception as error:  # noqa: BLE001 - any failure here is ours, not the sender's
            sys.stderr.write(
                f"Temporary failure ({error.__class__.__name__}): the message is kept; try again later.\n"
            )
            sys.exit(EX_TEMPFAIL)
    execute_from_command_line(sys.argv)


if __name__ == "__main__":
    main()
