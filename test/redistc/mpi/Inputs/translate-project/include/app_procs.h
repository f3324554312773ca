// The number of processes of translate-project's arrangement.
#ifndef APP_PROCS_H
#define APP_PROCS_H
constexpr int AppProcs = 3;
#endif
