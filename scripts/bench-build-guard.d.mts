export declare function refuseE2eBuild(base: string): Promise<void>;
