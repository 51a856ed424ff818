import { useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Popover } from '../../ui/Popover';

/** Common emoji with Russian and English search words. */
const EMOJI: ReadonlyArray<readonly [string, string]> = [
  ['📄', 'документ страница document page'],
  ['📝', 'заметка записи note memo'],
  ['📌', 'кнопка закреп pin'],
  ['📎', 'скрепка clip'],
  ['📚', 'книги библиотека books library'],
  ['📖', 'книга чтение book read'],
  ['📒', 'блокнот тетрадь notebook'],
  ['🗂️', 'папки разделители folders'],
  ['📁', 'папка folder'],
  ['🗃️', 'архив картотека archive'],
  ['📅', 'календарь дата calendar date'],
  ['🗓️', 'планер календарь planner'],
  ['⏰', 'будильник время alarm time'],
  ['⌛', 'песочные часы время hourglass'],
  ['✅', 'готово галочка done check'],
  ['☑️', 'чекбокс задача checkbox task'],
  ['❗', 'важно внимание important'],
  ['❓', 'вопрос question'],
  ['💡', 'идея лампочка idea bulb'],
  ['🔥', 'огонь горячее fire hot'],
  ['⭐', 'звезда избранное star'],
  ['✨', 'блеск магия sparkles'],
  ['🎯', 'цель мишень target goal'],
  ['🚀', 'ракета запуск rocket launch'],
  ['🏆', 'кубок победа trophy'],
  ['🎉', 'праздник хлопушка party'],
  ['🎁', 'подарок gift'],
  ['❤️', 'сердце любовь heart love'],
  ['💚', 'зелёное сердце green heart'],
  ['💙', 'синее сердце blue heart'],
  ['👍', 'лайк класс like thumbs'],
  ['👋', 'привет рука wave hello'],
  ['🙂', 'улыбка smile'],
  ['😎', 'крутой очки cool'],
  ['🤔', 'думаю размышление thinking'],
  ['🙌', 'ура руки hooray'],
  ['👀', 'глаза смотреть eyes'],
  ['🧠', 'мозг ум brain'],
  ['👥', 'люди команда people team'],
  ['🤝', 'рукопожатие сделка handshake deal'],
  ['💬', 'сообщение чат comment chat'],
  ['📣', 'объявление мегафон announcement'],
  ['📢', 'громкоговоритель loudspeaker'],
  ['📧', 'почта письмо email mail'],
  ['📞', 'телефон звонок phone call'],
  ['💼', 'портфель работа briefcase work'],
  ['🏢', 'офис здание office'],
  ['🏠', 'дом home house'],
  ['🏡', 'дом сад house garden'],
  ['🧭', 'компас навигация compass'],
  ['🗺️', 'карта map'],
  ['🌍', 'земля мир globe world'],
  ['✈️', 'самолёт путешествие plane travel'],
  ['🚗', 'машина автомобиль car'],
  ['⚙️', 'настройки шестерёнка settings gear'],
  ['🔧', 'ключ инструмент wrench tool'],
  ['🛠️', 'инструменты tools'],
  ['🔒', 'замок закрыто lock'],
  ['🔑', 'ключ доступ key'],
  ['🔍', 'поиск лупа search'],
  ['📊', 'график диаграмма chart'],
  ['📈', 'рост график growth chart'],
  ['📉', 'падение график decline'],
  ['💰', 'деньги мешок money'],
  ['💳', 'карта оплата card payment'],
  ['🧾', 'чек счёт receipt'],
  ['🛒', 'корзина покупки cart shopping'],
  ['💻', 'ноутбук компьютер laptop computer'],
  ['🖥️', 'монитор desktop'],
  ['📱', 'телефон мобильный phone mobile'],
  ['🤖', 'робот бот robot'],
  ['🧪', 'эксперимент пробирка test experiment'],
  ['🧩', 'пазл деталь puzzle'],
  ['🎨', 'дизайн палитра art design'],
  ['✏️', 'карандаш правка pencil edit'],
  ['🖊️', 'ручка pen'],
  ['📐', 'линейка угол ruler'],
  ['🎓', 'учёба обучение education'],
  ['🏫', 'школа school'],
  ['🎵', 'музыка нота music'],
  ['🎬', 'кино видео movie'],
  ['📷', 'фото камера photo camera'],
  ['🎮', 'игра game'],
  ['⚽', 'футбол спорт football sport'],
  ['🏃', 'бег спорт run'],
  ['🧘', 'йога спокойствие yoga'],
  ['🍎', 'яблоко еда apple food'],
  ['☕', 'кофе coffee'],
  ['🍕', 'пицца pizza'],
  ['🍰', 'торт cake'],
  ['🌱', 'росток рост sprout'],
  ['🌳', 'дерево tree'],
  ['🌸', 'цветок flower'],
  ['🌞', 'солнце sun'],
  ['🌙', 'луна ночь moon night'],
  ['⛅', 'погода облако weather'],
  ['❄️', 'снег зима snow winter'],
  ['🌊', 'волна море wave sea'],
  ['🐱', 'кот кошка cat'],
  ['🐶', 'собака dog'],
  ['🦊', 'лиса fox'],
  ['🐝', 'пчела bee'],
  ['🦄', 'единорог unicorn'],
  ['🏁', 'финиш флаг finish flag'],
  ['🚩', 'флажок flag'],
  ['⚠️', 'предупреждение warning'],
  ['🛑', 'стоп stop'],
  ['♻️', 'переработка recycle'],
];

/** Picks one of the common emoji by name (Russian or English), or removes the icon. */
export function IconPicker({
  anchor,
  onPick,
  onRemove,
  onClose,
  canRemove,
}: {
  anchor: HTMLElement | null;
  onPick(emoji: string): void;
  onRemove(): void;
  onClose(): void;
  canRemove: boolean;
}) {
  const { t } = useTranslation();
  const [query, setQuery] = useState('');
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => input.current?.focus(), []);
  const found = useMemo(() => {
    const q = query.trim().toLowerCase();
    return q ? EMOJI.filter(([emoji, words]) => emoji === q || words.includes(q)) : EMOJI;
  }, [query]);

  return (
    <Popover anchor={anchor} onClose={onClose} className="icon-picker" label={t('page.iconPicker.title')}>
      <div className="picker-head">
        <input
          ref={input}
          className="picker-search input-compact"
          type="search"
          value={query}
          placeholder={t('page.iconPicker.search')}
          aria-label={t('page.iconPicker.search')}
          onChange={(e) => setQuery(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter' && found[0]) onPick(found[0][0]);
          }}
        />
        {canRemove && (
          <button type="button" className="picker-link" onClick={onRemove}>
            {t('page.iconPicker.remove')}
          </button>
        )}
      </div>
      {found.length === 0 ? (
        <p className="picker-empty">{t('page.iconPicker.nothing')}</p>
      ) : (
        <div className="emoji-grid" role="listbox" aria-label={t('page.iconPicker.title')}>
          {found.map(([emoji, words]) => (
            <button
              key={emoji}
              type="button"
              role="option"
              aria-selected={false}
              className="emoji-cell"
              title={words.split(' ')[0]}
              onClick={() => onPick(emoji)}
            >
              {emoji}
            </button>
          ))}
        </div>
      )}
    </Popover>
  );
}
