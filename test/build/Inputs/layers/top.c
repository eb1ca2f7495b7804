/* Uses both layers below it: base only through the transitive edge. */
int base_fn(void);
int mid_fn(void);
int top_fn(void) { return mid_fn() + base_fn(); }
