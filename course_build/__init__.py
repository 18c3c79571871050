"""The course's page assembly: one MkDocs plugin (plugin.py lists its stages in order)."""
