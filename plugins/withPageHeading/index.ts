export { withPageHeading, emptyTextBlock } from './withPageHeading';
