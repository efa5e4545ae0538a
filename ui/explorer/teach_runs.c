#include "teach.h"
int teach_runs(lesson_t *L) { (void)L; return -1; }
