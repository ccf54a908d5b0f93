// A thin C façade over ncursesw so Swift never sees <curses.h> (its macros and global
// variables do not import cleanly under Swift 6).
#ifndef CNCURSES_H
#define CNCURSES_H

enum {
    TUI_KEY_NONE = 0,
    TUI_KEY_CHAR = 1,     // code holds a Unicode scalar
    TUI_KEY_UP = 1001, TUI_KEY_DOWN, TUI_KEY_LEFT, TUI_KEY_RIGHT,
    TUI_KEY_PAGE_UP, TUI_KEY_PAGE_DOWN, TUI_KEY_HOME, TUI_KEY_END,
    TUI_KEY_ENTER, TUI_KEY_BACKSPACE, TUI_KEY_DELETE, TUI_KEY_BACK_TAB, TUI_KEY_RESIZE, TUI_KEY_OTHER,
    TUI_KEY_WORD_LEFT, TUI_KEY_WORD_RIGHT,  // Ctrl-← / Ctrl-→
    TUI_KEY_ALT_B, TUI_KEY_ALT_F, TUI_KEY_ALT_D, TUI_KEY_ALT_BACKSPACE  // Esc-prefixed, as terminals send Alt
};

enum {
    TUI_BOLD = 1, TUI_REVERSE = 2, TUI_DIM = 4, TUI_UNDERLINE = 8,
    TUI_ACCENT = 16, TUI_WARNING = 32, TUI_SUCCESS = 64
};

/// Sets a UTF-8 locale (falling back to C.UTF-8), starts curses in raw, no-echo, non-blocking
/// mode with a 25 ms Esc delay; colours unless use_color is 0. Returns 0 on success.
int tui_init(int use_color);
/// Restores the terminal.
void tui_end(void);
/// The current size.
void tui_size(int *rows, int *cols);
/// Reads the real size from the tty (TIOCGWINSZ) and tells curses about it.
void tui_update_size(void);
/// Clears the back buffer.
void tui_erase(void);
/// Writes UTF-8 text at a position with TUI_* style bits.
void tui_put(int y, int x, const char *utf8, int style);
/// Shows what was drawn.
void tui_refresh(void);
/// Reads one key without waiting: returns TUI_KEY_NONE when none is ready; for TUI_KEY_CHAR
/// the character is stored in *scalar.
int tui_read_key(unsigned int *scalar);

#endif
