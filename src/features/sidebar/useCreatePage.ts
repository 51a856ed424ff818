import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { newId } from '../../../schema/ids';
import { useAppDispatch } from '../../app/store';
import { createNote, type CreatablePageType, type RootSection } from '../pages/pagesSlice';

/** Creates a page (a Note unless `type` says otherwise) in a section and opens it. */
export function useCreatePage(onError?: (message: string) => void) {
  const { t } = useTranslation();
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const [busy, setBusy] = useState(false);
  const create = async (section: RootSection = 'private', type: CreatablePageType = 'Note') => {
    setBusy(true);
    try {
      const page = await dispatch(createNote({ section, id: newId(), type })).unwrap();
      navigate(`/${page.id}`);
    } catch {
      // The page is gone again (createNote rolls back); say so.
      onError?.(t(navigator.onLine === false ? 'sidebar.errors.network' : 'sidebar.errors.createFailed'));
    } finally {
      setBusy(false);
    }
  };
  return { create, busy };
}
