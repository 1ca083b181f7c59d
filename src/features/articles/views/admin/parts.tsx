/** What the editors' article screens share: the staff as <option>s, and a status as the editors read it. */

export type Editor = { id: number; first_name: string; last_name: string };

/** The community's staff as <option>s: the board's editor filter and the assign-editor choice. */
export function EditorOptions({ editors }: { editors: Editor[] }) {
  return (
    <>
      {editors.map((e) => (
        <option key={e.id} value={e.id}>
          {e.first_name} {e.last_name}
        </option>
      ))}
    </>
  );
}

/** A status as the editors read it (FINAL_EDIT is shown as proofreading, spec section 4). */
export const statusName = (t: (key: string, values?: Record<string, unknown>) => string, status: string) => t(`admin.articles.statusName.${status}`);
