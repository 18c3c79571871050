"""Offline build (OFFLINE=true, see tools/offline.py): give Material our local web-worker shim.

Without a polyfill whose path names "iframe-worker", Material's offline plugin adds a CDN copy.
Runs before the plugins' on_config (higher priority) so the plugin sees ours.
"""
import os

from mkdocs.plugins import event_priority

SHIM = "assets/vendor/iframe-worker/shim.js"


@event_priority(100)
def on_config(config, **kwargs):
    if os.environ.get("OFFLINE", "").lower() in ("1", "true", "yes"):
        config.extra["polyfills"] = [SHIM]
    return config
