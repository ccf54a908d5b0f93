#define _XOPEN_SOURCE_EXTENDED 1
#define NCURSES_WIDECHAR 1
#include "cncurses.h"
#include <curses.h>
#include <langinfo.h>
#include <locale.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

static int colors_on = 0;

// Codes of our own for Ctrl-← / Ctrl-→, above every code curses hands out.
#define CODE_WORD_LEFT (KEY_MAX + 101)
#define CODE_WORD_RIGHT (KEY_MAX + 102)
#define CODE_ALT_B (KEY_MAX + 103)
#define CODE_ALT_F (KEY_MAX + 104)
#define CODE_ALT_D (KEY_MAX + 105)
#define CODE_ALT_BACKSPACE (KEY_MAX + 106)

int tui_init(int use_color) {
    setlocale(LC_ALL, "");
    const char *codeset = nl_langinfo(CODESET);
    if (codeset == NULL || strcmp(codeset, "UTF-8") != 0) {
        if (setlocale(LC_ALL, "C.UTF-8") == NULL) setlocale(LC_ALL, "C.utf8");
    }
    if (initscr() == NULL) return -1;
    raw();
    noecho();
    nonl();
    keypad(stdscr, TRUE);
    nodelay(stdscr, TRUE);
    set_escdelay(25);
    // xterm, tmux and most emulators send these for Ctrl-arrows; not every terminfo entry names them.
    define_key("\033[1;5D", CODE_WORD_LEFT);
    define_key("\033[1;5C", CODE_WORD_RIGHT);
    define_key("\033[1;3D", CODE_WORD_LEFT);   // Alt-←
    define_key("\033[1;3C", CODE_WORD_RIGHT);  // Alt-→
    // Alt-letter arrives as Esc + letter in one write; curses matches it within the Esc delay, so
    // an Esc pressed on its own and a letter typed later stay two keys.
    define_key("\033b", CODE_ALT_B);
    define_key("\033f", CODE_ALT_F);
    define_key("\033d", CODE_ALT_D);
    define_key("\033\177", CODE_ALT_BACKSPACE);
    define_key("\033\010", CODE_ALT_BACKSPACE);
    curs_set(0);
    if (use_color && has_colors()) {
        start_color();
        use_default_colors();
        init_pair(1, COLOR_CYAN, -1);
        init_pair(2, COLOR_YELLOW, -1);
        init_pair(3, COLOR_GREEN, -1);
        colors_on = 1;
    }
    return 0;
}

void tui_end(void) {
    curs_set(1);
    endwin();
}

void tui_size(int *rows, int *cols) {
    getmaxyx(stdscr, *rows, *cols);
}

void tui_update_size(void) {
    struct winsize ws;
    if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_row > 0 && ws.ws_col > 0) {
        resizeterm(ws.ws_row, ws.ws_col);
    }
}

void tui_erase(void) { erase(); }

void tui_put(int y, int x, const char *utf8, int style) {
    attr_t attrs = A_NORMAL;
    short pair = 0;
    if (style & TUI_BOLD) attrs |= A_BOLD;
    if (style & TUI_REVERSE) attrs |= A_REVERSE;
    if (style & TUI_DIM) attrs |= A_DIM;
    if (style & TUI_UNDERLINE) attrs |= A_UNDERLINE;
    if (colors_on) {
        if (style & TUI_ACCENT) pair = 1;
        else if (style & TUI_WARNING) pair = 2;
        else if (style & TUI_SUCCESS) pair = 3;
    }
    attr_set(attrs, pair, NULL);
    mvaddstr(y, x, utf8);
    attr_set(A_NORMAL, 0, NULL);
}

void tui_refresh(void) { refresh(); }

int tui_read_key(unsigned int *scalar) {
    wint_t ch;
    int kind = get_wch(&ch);
    if (kind == ERR) return TUI_KEY_NONE;
    if (kind == KEY_CODE_YES) {
        switch (ch) {
        case KEY_UP: return TUI_KEY_UP;
        case KEY_DOWN: return TUI_KEY_DOWN;
        case KEY_LEFT: return TUI_KEY_LEFT;
        case KEY_RIGHT: return TUI_KEY_RIGHT;
        case KEY_PPAGE: return TUI_KEY_PAGE_UP;
        case KEY_NPAGE: return TUI_KEY_PAGE_DOWN;
        case KEY_HOME: return TUI_KEY_HOME;
        case KEY_END: return TUI_KEY_END;
        case KEY_ENTER: return TUI_KEY_ENTER;
        case KEY_BACKSPACE: return TUI_KEY_BACKSPACE;
        case KEY_DC: return TUI_KEY_DELETE;
        case KEY_BTAB: return TUI_KEY_BACK_TAB;
        case KEY_RESIZE: return TUI_KEY_RESIZE;
        case CODE_WORD_LEFT: return TUI_KEY_WORD_LEFT;
        case CODE_WORD_RIGHT: return TUI_KEY_WORD_RIGHT;
        case CODE_ALT_B: return TUI_KEY_ALT_B;
        case CODE_ALT_F: return TUI_KEY_ALT_F;
        case CODE_ALT_D: return TUI_KEY_ALT_D;
        case CODE_ALT_BACKSPACE: return TUI_KEY_ALT_BACKSPACE;
        default: return TUI_KEY_OTHER;
        }
    }
    *scalar = (unsigned int)ch;
    return TUI_KEY_CHAR;
}
