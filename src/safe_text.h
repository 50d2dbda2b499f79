/*
 * safe_text.h: what text from a user's input may be written where
 * (safe_text.c): no control characters anywhere (they break the workbook's
 * XML and steer the terminal), and no spreadsheet formula in a CSV cell.
 */
#ifndef GP_SAFE_TEXT_H
#define GP_SAFE_TEXT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The offset in p[0, len) of the first character no report may hold, and
 * in *code its code point; len when there is none.  Those are the C0
 * controls but tab, LF and CR (U+0000 to U+001F: XML 1.0 forbids them,
 * and ESC or BEL steer a terminal), DEL, the C1 controls (U+0080 to
 * U+009F, which terminals obey too) and the noncharacters U+FFFE and
 * U+FFFF (XML 1.0 forbids them).  p is UTF-8; a byte that is not is no
 * control here and is left to the UTF-8 check. */
size_t gp_text_control_at(const char *p, size_t len, uint32_t *code);

/* Whether a CSV cell holding text would be read as a formula by Excel or
 * LibreOffice (CWE-1236): it starts with =, +, -, @, a tab or a carriage
 * return.  Such a cell is written with a leading apostrophe, as OWASP
 * advises, so that it reads as the text it is. */
bool gp_csv_cell_is_formula(const char *p, size_t len);

#endif
