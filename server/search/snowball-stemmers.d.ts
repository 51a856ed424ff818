/** snowball-stemmers (ISC): JavaScript ports of the Snowball stemmers. */
declare module 'snowball-stemmers' {
  interface Stemmer {
    stem(word: string): string;
  }
  export function newStemmer(algorithm: string): Stemmer;
  export function algorithms(): string[];
}
