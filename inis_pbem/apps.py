from django.apps import AppConfig


class InisPbemConfig(AppConfig):
    """The project package as an app, so that its system checks are registered at start-up."""

    name = "inis_pbem"
    verbose_name = "Inis by email (project)"

    def ready(self) -> None:
        from . import checks  # noqa: F401  (registers the checks)
