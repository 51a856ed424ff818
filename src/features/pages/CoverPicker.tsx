import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ProgressBar } from '../../ui/ProgressBar';
import { COVER_POSITION_DEFAULT, type Cover } from '../../../schema/element';
import { isSafeHref } from '../../../schema/token';
import { uploadFile } from '../../editor/upload';
import { Button } from '../../ui/Button';
import { Popover } from '../../ui/Popover';
import { pageActionError } from './pageErrors';
import { FilePicker } from '../../ui/FilePicker';

/** The built-in cover library: gradients and plain colours, by LibraryCover imageId. */
export const COVER_LIBRARY: Record<string, string> = {
  'gradient-sunrise': 'linear-gradient(120deg, #f6d365 0%, #fda085 100%)',
  'gradient-ocean': 'linear-gradient(120deg, #89f7fe 0%, #66a6ff 100%)',
  'gradient-forest': 'linear-gradient(120deg, #a8e063 0%, #1f9d55 100%)',
  'gradient-dusk': 'linear-gradient(120deg, #a18cd1 0%, #fbc2eb 100%)',
  'gradient-peach': 'linear-gradient(120deg, #ffecd2 0%, #fcb69f 100%)',
  'gradient-night': 'linear-gradient(120deg, #30cfd0 0%, #330867 100%)',
  'gradient-mint': 'linear-gradient(120deg, #d4fc79 0%, #96e6a1 100%)',
  'gradient-berry': 'linear-gradient(120deg, #ff758c 0%, #ff7eb3 100%)',
  'solid-green': 'linear-gradient(#1f9d55, #1f9d55)',
  'solid-orange': 'linear-gradient(#f08c00, #f08c00)',
  'solid-blue': 'linear-gradient(#4d7cfe, #4d7cfe)',
  'solid-red': 'linear-gradient(#e0584f, #e0584f)',
  'solid-yellow': 'linear-gradient(#f4c542, #f4c542)',
  'solid-purple': 'linear-gradient(#8e6cd8, #8e6cd8)',
  'solid-sand': 'linear-gradient(#e8dcc4, #e8dcc4)',
  'solid-graphite': 'linear-gradient(#4a4a48, #4a4a48)',
};

/** The CSS background-image of a cover. */
export function coverBackground(cover: Cover, pageId: string): string {
  if (cover.contentType === 'LibraryCover') return COVER_LIBRARY[cover.imageId] ?? COVER_LIBRARY['gradient-forest'];
  const url = cover.contentType === 'UrlCover' ? cover.url : `/api/file/protected/${encodeURIComponent(pageId)}/${encodeURIComponent(cover.fileId)}`;
  return `url("${url.replace(/["\\\n]/g, (c) => encodeURIComponent(c))}")`;
}

const IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'];
type Tab = 'library' | 'link' | 'upload';

/** Choose a cover: from the library, by image link (http/https), or by uploading an image to the page. */
export function CoverPicker({
  anchor,
  pageId,
  onPick,
  onRemove,
  onClose,
  hasCover,
}: {
  anchor: HTMLElement | null;
  pageId: string;
  onPick(cover: Cover): void;
  onRemove(): void;
  onClose(): void;
  hasCover: boolean;
}) {
  const { t } = useTranslation();
  const [tab, setTab] = useState<Tab>('library');
  const [link, setLink] = useState('');
  const [linkError, setLinkError] = useState<string | null>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const [uploadError, setUploadError] = useState<string | null>(null);

  const applyLink = () => {
    const url = link.trim();
    if (!isSafeHref(url) || !/^https?:\/\//i.test(url)) {
      setLinkError(t('page.cover.linkInvalid'));
      return;
    }
    onPick({ contentType: 'UrlCover', url, position: COVER_POSITION_DEFAULT });
  };

  const upload = async (file: File | undefined) => {
    if (!file) return;
    if (!IMAGE_TYPES.includes(file.type)) {
      setUploadError(t('page.cover.notAnImage'));
      return;
    }
    setUploadError(null);
    setProgress(0);
    try {
      const remote = await uploadFile(pageId, file, { onProgress: (share) => setProgress(Math.round(share * 100)) });
      onPick({ contentType: 'FileCover', fileId: remote.fileId, position: COVER_POSITION_DEFAULT });
    } catch (error) {
      setUploadError(pageActionError(t, error));
    } finally {
      setProgress(null);
    }
  };

  return (
    <Popover anchor={anchor} onClose={onClose} className="cover-picker" label={t('page.cover.title')} align="end">
      <div className="picker-tabs" role="tablist">
        {(['library', 'link', 'upload'] as const).map((name) => (
          <button
            key={name}
            type="button"
            role="tab"
            aria-selected={tab === name}
            className={tab === name ? 'picker-tab is-active' : 'picker-tab'}
            onClick={() => setTab(name)}
          >
            {t(`page.cover.${name}`)}
          </button>
        ))}
        <span className="picker-tabs-spacer" />
        {hasCover && (
          <button type="button" className="picker-link" onClick={onRemove}>
            {t('page.removeCover')}
          </button>
        )}
      </div>
      {tab === 'library' && (
        <div className="cover-grid">
          {Object.entries(COVER_LIBRARY).map(([imageId, background]) => (
            <button
              key={imageId}
              type="button"
              className="cover-swatch"
              style={{ backgroundImage: background }}
              aria-label={t(`page.cover.names.${imageId}`, { defaultValue: t('page.cover.title') })}
              title={t(`page.cover.names.${imageId}`, { defaultValue: t('page.cover.title') })}
              onClick={() => onPick({ contentType: 'LibraryCover', imageId, position: COVER_POSITION_DEFAULT })}
            />
          ))}
        </div>
      )}
      {tab === 'link' && (
        <form
          className="cover-link"
          onSubmit={(e) => {
            e.preventDefault();
            applyLink();
          }}
        >
          <input
            className="input"
            type="url"
            autoFocus
            value={link}
            placeholder={t('page.cover.linkPlaceholder')}
            aria-label={t('page.cover.link')}
            aria-invalid={!!linkError}
            onChange={(e) => {
              setLink(e.target.value);
              setLinkError(null);
            }}
          />
          {linkError && (
            <p className="picker-error" role="alert">
              {linkError}
            </p>
          )}
          <Button type="submit" size="s">
            {t('page.cover.linkApply')}
          </Button>
        </form>
      )}
      {tab === 'upload' && (
        <div className="cover-upload">
          {progress === null ? (
            <FilePicker accept={IMAGE_TYPES.join(',')} label={t('page.cover.chooseFile')} onFiles={([file]) => void upload(file)}>
              {(open) => (
                <Button kind="outline" size="s" onClick={open}>
                  {t('page.cover.chooseFile')}
                </Button>
              )}
            </FilePicker>
          ) : (
            <ProgressBar value={progress / 100} label={t('page.cover.uploading', { percent: progress })} />
          )}
          <p className="picker-hint">{t('page.cover.uploadHint')}</p>
          {uploadError && (
            <p className="picker-error" role="alert">
              {uploadError}
            </p>
          )}
        </div>
      )}
    </Popover>
  );
}
