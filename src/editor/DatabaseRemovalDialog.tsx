import { useCallback, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { DatabaseElement } from '../../schema/slate';
import { api } from '../app/api';
import { Button } from '../ui/Button';
import { Dialog } from '../ui/Dialog';

/** How many live rows a database has (0 when it cannot be read: the edit is then asked about as if it had some). */
async function rowCount(database: DatabaseElement): Promise<number | null> {
  try {
    const { meta } = await api<unknown>(`/api/v3/spaces/database/${encodeURIComponent(database.uid)}`);
    return typeof meta?.rowCount === 'number' ? meta.rowCount : null;
  } catch {
    return null;
  }
}

/**
 * The question `withDatabaseGuard` asks before an edit removes databases: how many rows go with
 * them, «Удалить» or «Отмена». Databases without rows go without asking.
 */
export function useDatabaseRemovalDialog(): { confirm(databases: DatabaseElement[]): Promise<boolean>; dialog: ReactNode } {
  const { t } = useTranslation();
  const [asking, setAsking] = useState<{ count: number | null; several: boolean } | null>(null);
  const answer = useRef<((keep: boolean) => void) | null>(null);
  const confirm = useCallback(async (databases: DatabaseElement[]) => {
    const counts = await Promise.all(databases.map(rowCount));
    if (counts.every((n) => n === 0)) return true;
    const known = counts.every((n) => n !== null) ? counts.reduce<number>((sum, n) => sum + (n ?? 0), 0) : null;
    return new Promise<boolean>((resolve) => {
      answer.current = resolve;
      setAsking({ count: known, several: databases.length > 1 });
    });
  }, []);
  const close = (keep: boolean) => {
    answer.current?.(keep);
    answer.current = null;
    setAsking(null);
  };
  const dialog = asking ? (
    <Dialog
      title={t(asking.several ? 'databaseRemoval.titleMany' : 'databaseRemoval.title')}
      onClose={() => close(false)}
      className="database-removal"
      footer={
        <>
          <Button kind="outline" onClick={() => close(false)} autoFocus>
            {t('databaseRemoval.cancel')}
          </Button>
          <Button tone="attention" onClick={() => close(true)}>
            {t('databaseRemoval.confirm')}
          </Button>
        </>
      }
    >
      <p>{asking.count === null ? t('databaseRemoval.bodyUnknown') : t('databaseRemoval.body', { count: asking.count })}</p>
    </Dialog>
  ) : null;
  return { confirm, dialog };
}
