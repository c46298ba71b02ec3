export declare const localesDir: string;
