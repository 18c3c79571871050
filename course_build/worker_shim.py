"""Offline build (mkdocs.yml's offline plugin enabled, see tools/offline_copy.py): give Material our
local web-worker shim.

Without a polyfill whose path names "iframe-worker", Material's offline plugin adds a CDN copy.
Runs before the plugins' on_config (higher priority) so the plugin sees ours.
"""
import html

from mkdocs.plugins import event_priority

SHIM = "assets/vendor/iframe-worker/shim.js"


def offline_build(config) -> bool:
    """True while tools/offline_copy.py builds the offline copy: mkdocs.yml's offline plugin is enabled."""
    plugin = config["plugins"].get("material/offline") or config["plugins"].get("offline")
    return bool(plugin and plugin.config.enabled)


@event_priority(100)
def on_config(config, **kwargs):
    if offline_build(config):
        config.extra["polyfills"] = [SHIM]
    return config


def not_here_note(ui: dict, page) -> str:
    """What a page says instead of a download the copy does not hold (the offline copy itself):
    where the file is, linked to this page of the online course (site_url)."""
    url = page.canonical_url
    site = (f'<a href="{html.escape(url)}">{html.escape(ui["site_link"])}</a>' if url
            else html.escape(ui["site_link"]))
    return html.escape(ui["not_here"]).replace("{site}", site)
