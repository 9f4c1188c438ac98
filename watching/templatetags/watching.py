"""`{% follow_button game %}`: the Follow / Unfollow button of a public game's page (nothing for
a game that is not public, or over and not followed, or to a player seated at it)."""

from django import template

from watching import selectors

register = template.Library()


@register.inclusion_tag("watching/_follow.html", takes_context=True)
def follow_button(context, game) -> dict:
    request = context.get("request")
    user = getattr(request, "user", None)
    public = selectors.is_public(game)
    # Read with the game page's game when it was (`web.live.game_for_page`'s page column).
    following = public and getattr(game, "page_following", None)
    if following is None:
        following = selectors.is_following(user, game)
    # A player seated at the game (signed in, or by a seat link: the page's `seat`) gets its news
    # as a player: no Follow for them (an Unfollow stays, for a follow made before).
    seated = context.get("seat") is not None or bool(getattr(game, "page_my_positions", 0))
    return {
        "game": game,
        "show": public and (following or (not game.is_over and not seated)),
        "following": following,
        "signed_in": bool(user is not None and user.is_authenticated),
        "next": request.get_full_path() if request is not None else "",
        "request": request,
        "csrf_token": context.get("csrf_token"),
    }
