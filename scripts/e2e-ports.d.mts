export declare const E2E_PORT: number;
export declare const E2E_BACKEND_PORT: number;
export declare const e2eBaseURL: string;
export declare const e2eReadyURL: string;
export declare const e2eBackendEnv: Record<string, string>;
export declare const e2eServerEnv: Record<string, string>;
export declare const E2E_SERVER_STARTED: string;
