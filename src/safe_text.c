/*
 * safe_text.c: the characters and cells no report may hold because of what
 * a reader would do with them: control characters (the workbook's XML
 * refuses them; a terminal obeys them) and text a spreadsheet would run as
 * a formula.  docs/report.md says what gpuplan promises.
 */
#include "safe_text.h"

size_t gp_text_control_at(const char *p, size_t len, uint32_t *code)
{
    const unsigned char *u = (const unsigned char *)p;

    for (size_t i = 0; i < len; i++) {
        if ((u[i] < 0x20 && u[i] != '\t' && u[i] != '\n' && u[i] != '\r') ||
            u[i] == 0x7f) {
            *code = u[i];
            return i;
        }
        /* C1: U+0080..U+009F is C2 80..C2 9F in UTF-8 */
        if (u[i] == 0xc2 && i + 1 < len && u[i + 1] >= 0x80 &&
            u[i + 1] <= 0x9f) {
            *code = u[i + 1];
            return i;
        }
        /* U+FFFE and U+FFFF: EF BF BE and EF BF BF */
        if (u[i] == 0xef && i + 2 < len && u[i + 1] == 0xbf &&
            (u[i + 2] == 0xbe || u[i + 2] == 0xbf)) {
            *code = u[i + 2] == 0xbe ? 0xfffe : 0xffff;
            return i;
        }
    }
    return len;
}

bool gp_csv_cell_is_formula(const char *p, size_t len)
{
    return len > 0 && (p[0] == '=' || p[0] == '+' || p[0] == '-' ||
                       p[0] == '@' || p[0] == '\t' || p[0] == '\r');
}
