/**
 * The virtual phone's texts for the shop's offers (revision 6), `phone.offers.*`, in every language. They live with
 * the agent until @kisht/locales holds them: phoneStrings() lays the locale files over these, so once a locale has
 * `phone.offers` its own texts win.
 */
import type { Language } from '@kisht/domain/constants';

export interface OfferStrings {
  /** The channel's name, above the list. */
  heading: string;
  /** The settings switch's label. */
  switch: string;
  switchHint: string;
  none: string;
  optedOut: string;
  /** The button on an offer not opened yet, and its accessible name (which names the offer). */
  open: string;
  openNamed: string;
  opened: string;
  /** The offer's link, once opened. */
  link: string;
  /** The picture's alternative text. */
  picture: string;
}

export const OFFER_STRINGS: Record<Language, OfferStrings> = {
  en: {
    heading: 'Offers',
    switch: 'Shop offers',
    switchHint: 'Offers from your shop. Payment reminders always show.',
    none: 'No offers right now.',
    optedOut: 'Shop offers are off.',
    open: 'Open',
    openNamed: 'Open {{title}}',
    opened: 'Opened',
    link: 'See the offer',
    picture: 'Picture: {{title}}',
  },
  hn: {
    heading: 'ऑफ़र',
    switch: 'दुकान के ऑफ़र',
    switchHint: 'आपकी दुकान के ऑफ़र। भुगतान रिमाइंडर हमेशा दिखते हैं।',
    none: 'अभी कोई ऑफ़र नहीं है।',
    optedOut: 'दुकान के ऑफ़र बंद हैं।',
    open: 'खोलें',
    openNamed: '{{title}} खोलें',
    opened: 'खोला गया',
    link: 'ऑफ़र देखें',
    picture: 'तस्वीर: {{title}}',
  },
  mr: {
    heading: 'ऑफर',
    switch: 'दुकानाच्या ऑफर',
    switchHint: 'तुमच्या दुकानाच्या ऑफर. पेमेंट स्मरणपत्रे नेहमी दिसतात.',
    none: 'सध्या कोणतीही ऑफर नाही.',
    optedOut: 'दुकानाच्या ऑफर बंद आहेत.',
    open: 'उघडा',
    openNamed: '{{title}} उघडा',
    opened: 'उघडले',
    link: 'ऑफर पाहा',
    picture: 'चित्र: {{title}}',
  },
  gj: {
    heading: 'ઑફર',
    switch: 'દુકાનની ઑફર',
    switchHint: 'તમારી દુકાનની ઑફર. ચુકવણી રિમાઇન્ડર હંમેશા દેખાય છે.',
    none: 'હાલમાં કોઈ ઑફર નથી.',
    optedOut: 'દુકાનની ઑફર બંધ છે.',
    open: 'ખોલો',
    openNamed: '{{title}} ખોલો',
    opened: 'ખોલેલી',
    link: 'ઑફર જુઓ',
    picture: 'ચિત્ર: {{title}}',
  },
  sp: {
    heading: 'Ofertas',
    switch: 'Ofertas de la tienda',
    switchHint: 'Ofertas de tu tienda. Los recordatorios de pago se muestran siempre.',
    none: 'No hay ofertas por ahora.',
    optedOut: 'Las ofertas de la tienda están desactivadas.',
    open: 'Abrir',
    openNamed: 'Abrir {{title}}',
    opened: 'Abierta',
    link: 'Ver la oferta',
    picture: 'Imagen: {{title}}',
  },
  bd: {
    heading: 'অফার',
    switch: 'দোকানের অফার',
    switchHint: 'আপনার দোকানের অফার। পেমেন্টের রিমাইন্ডার সবসময় দেখানো হয়।',
    none: 'এখন কোনো অফার নেই।',
    optedOut: 'দোকানের অফার বন্ধ আছে।',
    open: 'খুলুন',
    openNamed: '{{title}} খুলুন',
    opened: 'খোলা হয়েছে',
    link: 'অফারটি দেখুন',
    picture: 'ছবি: {{title}}',
  },
  kn: {
    heading: 'ಆಫರ್‌ಗಳು',
    switch: 'ಅಂಗಡಿಯ ಆಫರ್‌ಗಳು',
    switchHint: 'ನಿಮ್ಮ ಅಂಗಡಿಯ ಆಫರ್‌ಗಳು. ಪಾವತಿ ಜ್ಞಾಪನೆಗಳು ಯಾವಾಗಲೂ ಕಾಣಿಸುತ್ತವೆ.',
    none: 'ಈಗ ಯಾವುದೇ ಆಫರ್ ಇಲ್ಲ.',
    optedOut: 'ಅಂಗಡಿಯ ಆಫರ್‌ಗಳು ಆಫ್ ಆಗಿವೆ.',
    open: 'ತೆರೆಯಿರಿ',
    openNamed: '{{title}} ತೆರೆಯಿರಿ',
    opened: 'ತೆರೆಯಲಾಗಿದೆ',
    link: 'ಆಫರ್ ನೋಡಿ',
    picture: 'ಚಿತ್ರ: {{title}}',
  },
  tg: {
    heading: 'ఆఫర్‌లు',
    switch: 'దుకాణం ఆఫర్‌లు',
    switchHint: 'మీ దుకాణం నుండి ఆఫర్‌లు. చెల్లింపు రిమైండర్‌లు ఎల్లప్పుడూ కనిపిస్తాయి.',
    none: 'ప్రస్తుతం ఆఫర్‌లు లేవు.',
    optedOut: 'దుకాణం ఆఫర్‌లు ఆఫ్‌లో ఉన్నాయి.',
    open: 'తెరవండి',
    openNamed: '{{title}} తెరవండి',
    opened: 'తెరిచారు',
    link: 'ఆఫర్ చూడండి',
    picture: 'చిత్రం: {{title}}',
  },
  tm: {
    heading: 'சலுகைகள்',
    switch: 'கடை சலுகைகள்',
    switchHint: 'உங்கள் கடையின் சலுகைகள். கட்டண நினைவூட்டல்கள் எப்போதும் காட்டப்படும்.',
    none: 'இப்போது சலுகைகள் எதுவும் இல்லை.',
    optedOut: 'கடை சலுகைகள் முடக்கப்பட்டுள்ளன.',
    open: 'திற',
    openNamed: '{{title}} திற',
    opened: 'திறக்கப்பட்டது',
    link: 'சலுகையைப் பார்க்கவும்',
    picture: 'படம்: {{title}}',
  },
  pp: {
    heading: 'ਆਫ਼ਰ',
    switch: 'ਦੁਕਾਨ ਦੇ ਆਫ਼ਰ',
    switchHint: 'ਤੁਹਾਡੀ ਦੁਕਾਨ ਦੇ ਆਫ਼ਰ। ਭੁਗਤਾਨ ਰੀਮਾਈਂਡਰ ਹਮੇਸ਼ਾ ਦਿਖਾਈ ਦਿੰਦੇ ਹਨ।',
    none: 'ਇਸ ਵੇਲੇ ਕੋਈ ਆਫ਼ਰ ਨਹੀਂ ਹੈ।',
    optedOut: 'ਦੁਕਾਨ ਦੇ ਆਫ਼ਰ ਬੰਦ ਹਨ।',
    open: 'ਖੋਲ੍ਹੋ',
    openNamed: '{{title}} ਖੋਲ੍ਹੋ',
    opened: 'ਖੋਲ੍ਹਿਆ ਗਿਆ',
    link: 'ਆਫ਼ਰ ਵੇਖੋ',
    picture: 'ਤਸਵੀਰ: {{title}}',
  },
};
