"""Real-browser tests: Voilà pages driven by Playwright in Debian's Chromium (see conftest.py)."""
