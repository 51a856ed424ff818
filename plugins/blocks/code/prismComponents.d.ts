// prismjs language files register themselves on the global Prism; they export nothing.
declare module 'prismjs/components/prism-*';
