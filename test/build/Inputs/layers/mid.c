/* Uses the layer below it. */
int base_fn(void);
int mid_fn(void) { return base_fn() + 1; }
