import type { OwnerWords } from './owner-words.en';

const CHECK_CONNECTION = 'Angalia mtandao wako, kisha ujaribu tena.';

export const sw: OwnerWords = {
  roles: {
    viewer: { name: 'Mtazamaji', can: 'Anaweza kuona historia' },
    cashier: { name: 'Keshia', can: 'Anaweza pia kuomba malipo' },
    owner: { name: 'Mmiliki', can: 'Anaweza pia kupakua, kukagua na kusimamia watu' },
  },
  scopes: {
    'payments:read': {
      name: 'Kusoma malipo',
      can: 'Historia, takwimu na maelezo ya kila malipo',
    },
    'payments:request': { name: 'Kuomba malipo', can: 'Kutuma maombi ya malipo' },
    'webhooks:manage': {
      name: 'Kusimamia webhooks',
      can:
        'Kuongeza, kubadilisha na kuondoa anwani za webhook, na kutuma tena. Anwani zake hupokea ' +
        'kila malipo pamoja na namba kamili ya simu ya mlipaji, kama “Kusoma malipo”',
    },
  },

  roleRefused:
    'Jukumu lako haliruhusu hili: mmiliki pekee ndiye anayesimamia wahudumu, funguo za API, webhooks na rekodi ya shughuli.',
  unreachable: `Seva haikuweza kufikiwa. ${CHECK_CONNECTION}`,
  fallback: 'Hilo halikufanikiwa. Tafadhali jaribu tena.',
  copied: 'Imenakiliwa',
  copyFailed: 'Haikuweza kunakiliwa: ichague kisha uinakili.',
  done: 'Nimemaliza',
  keep: 'Acha',
  nameLabel: 'Jina',

  operators: {
    title: 'Wahudumu',
    intro: 'Watu wanaoingia kwenye malipo ya duka hili, na kile kila mmoja wao anaweza kufanya.',
    columns: {
      name: 'Jina',
      role: 'Jukumu',
      password: 'Nenosiri',
      added: 'Aliongezwa',
      change: 'Badilisha',
    },
    loading: 'Inapakia wahudumu...',
    you: ' (wewe)',
    passwordSet: 'Limewekwa',
    passwordNotSet: 'Bado halijawekwa',
    newRoleFor: (name) => `Jukumu jipya la ${name}`,
    changeRole: 'Badilisha jukumu',
    changeRoleOf: (name) => `Badilisha jukumu la ${name}`,
    newLink: 'Kiungo kipya cha nenosiri',
    newLinkFor: (name) => `Kiungo kipya cha nenosiri cha ${name}`,
    remove: 'Ondoa',
    removeName: (name) => `Ondoa ${name}`,
    removeQuestion: (name) => `Uondoe ${name}? Atatolewa na hataweza kuingia tena.`,
    linkTitle: (name) => `Kiungo cha nenosiri cha ${name}`,
    copyLink: 'Nakili kiungo',
    linkText: (name, until) =>
      `Mtumie ${name} kiungo hiki: kinamwezesha kuchagua nenosiri lake. Kinafanya kazi mara moja, kwa saa 24 (hadi ${until}). Hakitaonyeshwa tena; kiungo kipya kinaweza kutengenezwa wakati wowote, na kitabatilisha hiki.`,
    addTitle: 'Ongeza mhudumu',
    addMissingName: 'Weka jina lake.',
    addLegend: 'Anachoweza kufanya',
    addSubmit: 'Ongeza',
  },

  keys: {
    title: 'Funguo za API',
    introBefore:
      'Funguo huruhusu mifumo ya duka lenyewe kusoma malipo au kuyaomba, bila mtu yeyote kuingia. Mfumo hutuma ufunguo wake kwenye kichwa ',
    introAfter:
      '. Ufunguo huacha kufanya kazi mmiliki aliyeuunda anapoondolewa au anapoacha kuwa mmiliki.',
    columns: {
      name: 'Jina',
      scope: 'Unaruhusiwa',
      prefix: 'Unaanza na',
      created: 'Uliundwa',
      lastUsed: 'Ulitumika mwisho',
      status: 'Hali',
    },
    loading: 'Inapakia funguo...',
    empty: 'Bado hakuna funguo.',
    createdBy: (who, when) => `na ${who}, ${when}`,
    never: 'Haujawahi kutumika',
    revokedAt: (when) => `Ulibatilishwa ${when}`,
    revokedByOwner: (when, who) => `Ulibatilishwa ${when} na ${who ?? 'mmiliki'}`,
    revokedMakerRemoved: (when) => `Ulibatilishwa ${when}: aliyeuunda aliondolewa`,
    revokedMakerNotOwner: (when) => `Ulibatilishwa ${when}: aliyeuunda si mmiliki tena`,
    webhooksHear: 'Anwani zake hupokea namba kamili za simu za walipaji, kama “Kusoma malipo”.',
    active: 'Unatumika',
    revoke: 'Batilisha',
    revokeName: (name) => `Batilisha ${name}`,
    revokeQuestion: (name) =>
      `Ubatilishe ufunguo “${name}”? Mifumo inayoutumia itakataliwa kuanzia sasa.`,
    madeTitle: (name) => `Ufunguo “${name}”`,
    copyKey: 'Nakili ufunguo',
    madeText: 'Unakili sasa na uuhifadhi mahali salama: hautaonyeshwa tena.',
    createTitle: 'Unda ufunguo',
    createMissingName: 'Weka jina la ufunguo.',
    createHint: 'Mfumo utakaoutumia, mf. “Till 2” au “Hesabu”.',
    createLegend: 'Unachoruhusiwa kufanya',
    createSubmit: 'Unda ufunguo',
  },

  setPassword: {
    title: 'Weka nenosiri lako',
    rule: (min, max) =>
      `Chagua nenosiri la herufi ${min} hadi ${max}: maneno machache utakayoyakumbuka ni rahisi kuandika na magumu kukisia.`,
    passwordLabel: 'Nenosiri jipya',
    againLabel: 'Nenosiri hilohilo tena',
    submit: 'Weka nenosiri',
    setting: 'Inaweka...',
    tooShortOrLong: (min, max) => `Chagua nenosiri la herufi ${min} hadi ${max}.`,
    notTheSame: 'Manenosiri hayo mawili hayafanani.',
    done: (name) => `Nenosiri lako limewekwa, ${name}. Ingia kwa jina lako na nenosiri jipya.`,
    goToSignIn: 'Nenda ukaingie',
    linkInvalid:
      'Kiungo hiki hakifanyi kazi: kimeshatumika, kina zaidi ya saa 24, au kiungo kipya zaidi ' +
      'kimetengenezwa. Muulize mmiliki wa duka kiungo kipya.',
    failed: 'Kuweka nenosiri kumeshindwa. Tafadhali jaribu tena.',
  },
};
