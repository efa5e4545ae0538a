#include "teach.h"
int teach_pairs(lesson_t *L) { (void)L; return -1; }
