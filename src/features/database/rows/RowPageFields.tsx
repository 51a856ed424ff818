import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { databaseDataSchema, type DatabaseConfig, type DatabaseField } from '../../../../schema/blocks/database';
import { channels } from '../../../../schema/realtime';
import type { DatabaseEvent } from '../../../../schema/database';
import { useAppSelector } from '../../../app/store';
import { useRealtime } from '../../../app/RealtimeProvider';
import { showToast } from '../../../ui/Toast';
import { useMentionable } from '../../comments/members';
import { databaseApi } from '../api';
import { RowFields } from './RowFields';
import type { RowStore } from './rowStore';
import '../database.css';

/**
 * A row opened as a full page (`/<rowId>`): its fields above its blocks. The database's fields
 * come from `GET database/{id}`; the row's cells from `GET row/{id}`, and others' changes of them
 * from the holding page's `database` events.
 */
export default function RowPageFields({
  rowId,
  databaseId,
  holderId,
  workspaceId,
  editable,
}: {
  rowId: string;
  databaseId: string;
  holderId: string | null;
  workspaceId: string | null;
  editable: boolean;
}) {
  const { t } = useTranslation('automation');
  const [config, setConfig] = useState<DatabaseConfig | null>(null);
  const [store, setStore] = useState<RowStore | null>(null);
  const realtime = useRealtime();
  const userId = useAppSelector((state) => state.auth.user?.id ?? null);
  const hasPeople = !!config && Object.values(config.fields).some((f) => f.type === 'person');
  const members = useMentionable(workspaceId, rowId, hasPeople);

  useEffect(() => {
    let cancelled = false;
    databaseApi.database(databaseId).then(
      ({ block }) => {
        const parsed = databaseDataSchema.safeParse(block.data);
        if (!cancelled && parsed.success) setConfig(parsed.data.config);
      },
      () => !cancelled && showToast(t('database.readFailed'), 'error'),
    );
    return () => {
      cancelled = true;
    };
  }, [databaseId, t]);

  useEffect(() => {
    if (!realtime || !userId || !holderId || !store) return;
    return realtime.subscribe(channels.element(holderId, userId), {
      onEvent(event, payload) {
        const change = payload as unknown as DatabaseEvent;
        if (event === 'database' && change.databaseId === databaseId) store.applyChange(change.change);
      },
    });
  }, [realtime, userId, holderId, store, databaseId]);

  const saveField = useCallback(
    async (fieldId: string, field: DatabaseField) => {
      try {
        const { block } = await databaseApi.updateField(databaseId, fieldId, field);
        const parsed = databaseDataSchema.safeParse(block.data);
        if (parsed.success) setConfig(parsed.data.config);
        return true;
      } catch {
        showToast(t('database.writeFailed'), 'error');
        return false;
      }
    },
    [databaseId, t],
  );

  if (!config) return null;
  return (
    <div className="db-row-page">
      <RowFields
        rowId={rowId}
        databaseId={databaseId}
        config={config}
        editable={editable}
        api={databaseApi}
        members={members}
        saveField={saveField}
        onStore={setStore}
      />
    </div>
  );
}
