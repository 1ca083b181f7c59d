// The areas declare their error codes and kinds of notification in their register.ts, and the list
// of areas (src/features/areas.ts) registers them when it loads: the app does at start. A test that
// calls an area's service without building the app loads the list here, for every test file.
import '#src/features/areas.ts';
