/* TessDumpKeeper: keeps the project's text dump (core/formats, TEXTFORM.md)
 * beside the project file up to date while the document's "keep-dump"
 * setting is on, so a team can commit the text form and ignore the
 * database.
 *
 * Each commit restarts a settle timer; when edits have settled, a worker
 * thread opens the file read-only on its own connection (SQLite's WAL lets
 * it read beside the editor's writer), loads the project and dumps it, so
 * the window never waits. A commit during a dump runs one more dump after
 * it. Each file of the dump is written under a temporary name and renamed
 * (tess_text_dump), so a reader never sees a partial file. */
#pragma once

#include "tess-document.h"

G_BEGIN_DECLS

#define TESS_TYPE_DUMP_KEEPER (tess_dump_keeper_get_type())
G_DECLARE_FINAL_TYPE(TessDumpKeeper, tess_dump_keeper, TESS, DUMP_KEEPER, GObject)

/* How long edits must have settled before the dump is written. */
#define TESS_DUMP_KEEPER_SETTLE_MS 2000

TessDumpKeeper *tess_dump_keeper_new(TessDocument *doc);
void tess_dump_keeper_set_settle_ms(TessDumpKeeper *self, guint ms);
/* Dumps written since the keeper started (tests, the status line). */
guint tess_dump_keeper_get_written(TessDumpKeeper *self);
/* TRUE while a dump waits for edits to settle or is being written. */
gboolean tess_dump_keeper_get_busy(TessDumpKeeper *self);
/* Closing the project: waits for a dump being written, then writes a
 * pending one at once, so the last edits reach the dump. Stops the keeper. */
void tess_dump_keeper_finish(TessDumpKeeper *self);

/* Signals: "written" (after each dump), "failed" (a translated message). */

G_END_DECLS
