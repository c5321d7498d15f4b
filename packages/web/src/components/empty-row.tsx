/** The row a table shows when it has nothing to show (once it has loaded). */
export function EmptyRow({ columns, shown, loading, text = 'Nothing here yet.' }: { columns: number; shown: number; loading: boolean; text?: string }) {
  if (loading || shown > 0) return null;
  return (
    <tr className="empty-row">
      <td colSpan={columns} className="text-secondary fst-italic">
        {text}
      </td>
    </tr>
  );
}
