"""Offline build (OFFLINE=true, see tools/offline.py): give Material our local web-worker shim.

Without a polyfill whose path names "iframe-worker", Material's offline plugin adds a CDN copy.
Runs before the plugins' on_config (higher priority) so the plugin sees ours.
"""
import os

from mkdocs.plugins import event_priority

SHIM = "assets/vendor/iframe-worker/shim.js"


def offline_build() -> bool:
    """True while tools/offline.py builds the offline copy (OFFLINE=true)."""
    return os.environ.get("OFFLINE", "").lower() in ("1", "true", "yes")


@event_priority(100)
def on_config(config, **kwargs):
    if offline_build():
        config.extra["polyfills"] = [SHIM]
    return config
