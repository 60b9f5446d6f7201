// libedit (BSD editline), the interactive shell's line editor. Its el_set, el_get and
// history calls are variadic, which Swift cannot call: these wrappers give each use
// its own signature.
#include <stdio.h>
#include <histedit.h>

/// An editor on the process's standard streams (which Swift 6 cannot name safely).
static inline EditLine *hearth_el_open(const char *program) { return el_init(program, stdin, stdout, stderr); }

static inline int hearth_el_set_prompt(EditLine *el, char *(*prompt)(EditLine *)) {
  return el_set(el, EL_PROMPT, prompt);
}

static inline int hearth_el_set_editor(EditLine *el, const char *mode) { return el_set(el, EL_EDITOR, mode); }

static inline int hearth_el_set_history(EditLine *el, History *history_) {
  return el_set(el, EL_HIST, history, history_);
}

/// libedit restores the terminal and passes on SIGTERM, SIGHUP, SIGTSTP and the like
/// while it edits, and follows window size changes.
static inline int hearth_el_set_signal(EditLine *el, int on) { return el_set(el, EL_SIGNAL, on); }

static inline int hearth_el_add_function(
  EditLine *el, const char *name, const char *help, unsigned char (*function)(EditLine *, int)) {
  return el_set(el, EL_ADDFN, name, help, function);
}

static inline int hearth_el_bind(EditLine *el, const char *key, const char *function) {
  return el_set(el, EL_BIND, key, function, NULL);
}

static inline int hearth_el_set_client_data(EditLine *el, void *data) { return el_set(el, EL_CLIENTDATA, data); }

static inline void *hearth_el_client_data(EditLine *el) {
  void *data = NULL;
  el_get(el, EL_CLIENTDATA, &data);
  return data;
}

/// While a line is edited, Ctrl-C arrives as a key (bound to a function) instead of
/// raising SIGINT.
static inline int hearth_el_keep_interrupt_key(EditLine *el) { return el_set(el, EL_SETTY, "-d", "-isig", NULL); }

static inline History *hearth_history_open(int size) {
  HistEvent event;
  History *opened = history_init();
  if (opened) {
    history(opened, &event, H_SETSIZE, size);
    history(opened, &event, H_SETUNIQUE, 1);
  }
  return opened;
}

static inline int hearth_history_enter(History *history_, const char *line) {
  HistEvent event;
  return history(history_, &event, H_ENTER, line);
}

static inline int hearth_history_load(History *history_, const char *file) {
  HistEvent event;
  return history(history_, &event, H_LOAD, file);
}

static inline int hearth_history_save(History *history_, const char *file) {
  HistEvent event;
  return history(history_, &event, H_SAVE, file);
}
