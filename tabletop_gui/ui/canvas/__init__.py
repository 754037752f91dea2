"""The battlefield canvas: scene mirroring the document, its items, the view, the tools."""
