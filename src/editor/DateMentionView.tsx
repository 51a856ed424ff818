import type { ReactNode } from 'react';
import type { DateMention } from '../../schema/token';
import { editorT } from './blocks/textBlockParts';
import './dateMention.css';

const REMINDER_TIME = new Intl.DateTimeFormat('ru-RU', { day: 'numeric', month: 'long', year: 'numeric', hour: '2-digit', minute: '2-digit' });

/**
 * A date mention in the text (plugins/withDateMentions): its text is the date as it reads; an
 * `@` or, for a reminder, a bell is drawn before it by CSS (never part of the text). A reminder
 * says when it goes off on this clock, and is drawn as done once that has passed.
 */
export function DateMentionView({ date, children }: { date: DateMention; children: ReactNode }) {
  const remindAt = date.remindAt ? new Date(date.remindAt) : null;
  const passed = remindAt !== null && remindAt.getTime() <= Date.now();
  return (
    <time
      className={`date-mention${remindAt ? ' date-mention-reminder' : ''}${passed ? ' is-passed' : ''}`}
      dateTime={date.start}
      title={remindAt ? editorT('dateMention.reminder', { label: REMINDER_TIME.format(remindAt) }) : undefined}
    >
      {children}
    </time>
  );
}
