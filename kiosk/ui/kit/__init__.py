"""The toolkit every screen uses: widgets, menu, type, i18n, the text cache (texts drawn once), the frame
cache, layout, motion, the table, seating and contrast."""
