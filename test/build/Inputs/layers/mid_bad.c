/* A lower layer calling into a higher one: what check-layers must refuse. */
int top_fn(void);
int mid_calls_up(void) { return top_fn(); }
