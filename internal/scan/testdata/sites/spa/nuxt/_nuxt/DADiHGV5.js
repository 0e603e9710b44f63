import{_ as e,c,o}from"./BrbEt05w.js";const t={};function n(r,a){return o(),c("div",null,"About page")}const _=e(t,[["render",n]]);export{_ as default};
