/** The part of @orestbida/iframemanager 1.3's API the runtime uses (the package has no types). */
export type IframeManagerLanguage = { notice: string; loadBtn: string; loadAllBtn: string };

export type IframeManagerService = {
  embedUrl: string;
  cookie?: { name: string };
  languages: Record<string, IframeManagerLanguage>;
};

export type IframeManagerConfig = {
  currLang: string;
  services: Record<string, IframeManagerService>;
  onChange?: (change: { changedServices: string[]; eventSource: { type: 'api' | 'click'; service: string; action: 'accept' | 'reject' } }) => void;
};

export type IframeManager = {
  run(config: IframeManagerConfig): void;
  acceptService(name: string): void;
  rejectService(name: string): void;
  reset(hardReset?: boolean): void;
};

declare global {
  interface Window {
    iframemanager?: () => IframeManager;
  }
}
