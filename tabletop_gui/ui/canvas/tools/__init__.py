"""Canvas tools: each an object that turns mouse and key events on the view into edits."""
