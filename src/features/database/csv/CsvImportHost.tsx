import { lazy, Suspense } from 'react';
import { closeCsvImport, useCsvImportTarget } from './openCsvImport';

/** The dialog and papaparse are loaded only when an import starts. */
const CsvImportDialog = lazy(() => import('./CsvImportDialog'));

/** Mounted once by the shell: shows the import dialog while one is open. */
export function CsvImportHost() {
  const target = useCsvImportTarget();
  if (!target) return null;
  return (
    <Suspense fallback={null}>
      <CsvImportDialog target={target} onClose={closeCsvImport} />
    </Suspense>
  );
}
