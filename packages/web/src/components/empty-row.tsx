import { useT } from '../i18n/use-t';

/** The row a table shows when it has nothing to show (once it has loaded). */
export function EmptyRow({ columns, shown, loading, text }: { columns: number; shown: number; loading: boolean; text?: string }) {
  const t = useT();
  if (loading || shown > 0) return null;
  return (
    <tr className="empty-row">
      <td colSpan={columns} className="text-secondary fst-italic">
        {text ?? t('common.nothingYet')}
      </td>
    </tr>
  );
}
