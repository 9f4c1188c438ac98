"""manage.py rebuild_projections [NAME]: empty the read models (or the one named) and fold their
logs again (docs/management-commands.md, docs/open-tables.md)."""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError

from community import projections


class Command(BaseCommand):
    help = "Rebuild the read models from the logs: every projection, or the one named."

    def add_arguments(self, parser):
        parser.add_argument("name", nargs="?", help=f"one of: {', '.join(sorted(projections.registered()))}")

    def handle(self, *args, name=None, **options):
        try:
            folded = projections.rebuild(name)
        except KeyError as error:
            raise CommandError(error.args[0]) from None
        self.stdout.write(f"Rebuilt {name or 'every projection'}: {folded} log rows folded.")
