export { insertDateMention, withDateMentions } from './withDateMentions';
