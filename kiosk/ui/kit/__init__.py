"""The toolkit every screen uses: texts drawn once (text_cache), and more as the shell is split."""
