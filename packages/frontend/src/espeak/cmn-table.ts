/**
 * Mandarin syllable -> espeak-ng phonemes, for the WASM build's `cmn` voice
 * (espeak-ng 1.52-dev). Each entry is what `espeak-ng -v cmn -x` prints for
 * that pinyin syllable, with `_` where the tone goes and `'` where its stress
 * mark goes: feeding these back as [[phonemes]] gives byte-identical audio to
 * the pinyin (and to a character espeak reads that way).
 *
 * Changes from espeak's own rules, because its output is wrong there:
 * jiong/qiong/xiong (espeak spells them out as English letters), qun (read
 * like "qyin"; now like jun/xun), the syllabic nasals m/n/hm/hng and ê (read
 * as English), and kiu, the Chinese name of the letter Q.
 */
export const CMN_PHONEMES = `
a='A_ ai='ai_ an='a_n ang='A_N ao='Au_ ba=p'A_ bai=p'ai_ ban=p'a_n bang=p'A_N bao=p'Au_ bei=p'ei_ ben=p'@_n beng=p'@_N
bi=p'i_ bian=p'iE_n biao=pj'Au_ bie=p'iE_ bin=p'i_n bing=p'i_N bo=p'o_ bu=p'u_ ca=tsh'A_ cai=tsh'ai_ can=tsh'a_n
cang=tsh'A_N cao=tsh'Au_ ce=tsh'o-_ cen=tsh'@_n ceng=tsh'@_N cha=ts.h'A_ chai=ts.h'ai_ chan=ts.h'a_n chang=ts.h'A_N
chao=ts.h'Au_ che=ts.h'o-_ chen=ts.h'@_n cheng=ts.h'@_N chi=ts.h'i._ chong=ts.h'ong_ chou=ts.h'ou_ chu=ts.h'u_
chua=ts.hw'A_ chuai=ts.h'uai_ chuan=ts.h'ua_n chuang=ts.hw'A_N chui=ts.h'uei_ chun=ts.h'u@_n chuo=ts.h'uo_ ci=tsh'i[_
cong=tsh'ong_ cou=tsh'ou_ cu=tsh'u_ cuan=tsh'ua_n cui=tsh'uei_ cun=tsh'u@_n cuo=tsh'uo_ da=t'A_ dai=t'ai_ dan=t'a_n
dang=t'A_N dao=t'Au_ de=t'@_ dei=t'ei_ den=t'@_n deng=t'@_N di=t'i_ dia=t'iA_ dian=t'iE_n diao=tj'Au_ die=t'iE_
ding=t'i_N diu=t'iou_ dong=t'ong_ dou=t'ou_ du=t'u_ duan=t'ua_n dui=t'uei_ dun=t'u@_n duo=t'uo_ e='o-_ ei='ei_ en='@_n
eng='@_N er='@r_ fa=f'A_ fan=f'a_n fang=f'A_N fei=f'ei_ fen=f'@_n feng=f'@_N fo=f'o_ fou=f'ou_ fu=f'u_ ga=k'A_
gai=k'ai_ gan=k'a_n gang=k'A_N gao=k'Au_ ge=k'o-_ gei=k'ei_ gen=k'@_n geng=k'@_N gong=k'ong_ gou=k'ou_ gu=k'u_
gua=kw'A_ guai=k'uai_ guan=kw'a_n guang=kw'A_N gui=k'uei_ gun=k'u@_n guo=k'uo_ ha=X'A_ hai=X'ai_ han=X'a_n hang=X'A_N
hao=X'Au_ he=X'o-_ hei=X'ei_ hen=X'@_n heng=X'@_N hm=X'm-_ hng=X'N-_ hong=X'ong_ hou=X'ou_ hu=X'u_ hua=Xw'A_
huai=X'uai_ huan=X'ua_n huang=Xw'A_N hui=X'uei_ hun=Xw'u@_n huo=X'uo_ ji=tS;'i_ jia=tS;'iA_ jian=tS;'iE_n
jiang=tS;'iA_N jiao=tS;j'Au_ jie=tS;'iE_ jin=tS;'i_n jing=tS;'i_N jiong=tS;j'ong_ jiu=tS;'iou_ ju=tS;'y_ juan=tS;'y&_n
jue=tS;'yE_ jun=tS;'y@_n ka=kh'A_ kai=kh'ai_ kan=kh'a_n kang=kh'A_N kao=kh'Au_ ke=kh'o-_ kei=kh'ei_ ken=kh'@_n
keng=kh'@_N kiu=kh'iou_ kong=kh'ong_ kou=kh'ou_ ku=kh'u_ kua=khw'A_ kuai=kh'uai_ kuan=khw'a_n kuang=khw'A_N kui=kh'uei_
kun=khw'u@_n kuo=kh'uo_ la=l'A_ lai=l'ai_ lan=l'a_n lang=l'A_N lao=l'Au_ le=l'@_ lei=l'ei_ leng=l'@_N li=l'i_ lia=l'iA_
lian=l'iE_n liang=l'iA_N liao=lj'Au_ lie=l'iE_ lin=l'i_n ling=l'i_N liu=l'iou_ lo=l'o_ long=l'ong_ lou=l'ou_ lu=l'u_
luan=l'ua_n lun=l'u@_n luo=l'uo_ lv=l'y_ lve=l'yE_ m='m-_ ma=m'A_ mai=m'ai_ man=m'a_n mang=m'A_N mao=m'Au_ me=m'o-_
mei=m'ei_ men=m'@_n meng=m'@_N mi=m'i_ mian=m'iE_n miao=mj'Au_ mie=m'iE_ min=m'i_n ming=m'i_N miu=m'iou_ mo=m'o_
mou=m'ou_ mu=m'u_ n='n-_ na=n'A_ nai=n'ai_ nan=n'a_n nang=n'A_N nao=n'Au_ ne=n'@_ nei=n'ei_ nen=n'@_n neng=n'@_N
ng='N-_ ni=n'i_ nian=n'iE_n niang=n'iA_N niao=nj'Au_ nie=n'iE_ nin=n'i_n ning=n'i_N niu=n'iou_ nong=n'ong_ nou=n'ou_
nu=n'u_ nuan=n'ua_n nuo=n'uo_ nv=n'y_ nve=n'yE_ o='o_ ou='ou_ pa=ph'A_ pai=ph'ai_ pan=ph'a_n pang=ph'A_N pao=ph'Au_
pei=ph'ei_ pen=ph'@_n peng=ph'@_N pi=ph'i_ pian=ph'iE_n piao=phj'Au_ pie=ph'iE_ pin=ph'i_n ping=ph'i_N po=ph'o_
pou=ph'ou_ pu=ph'u_ qi=tS;h'i_ qia=tS;h'iA_ qian=tS;h'iE_n qiang=tS;h'iA_N qiao=tS;hj'Au_ qie=tS;h'iE_ qin=tS;h'i_n
qing=tS;h'i_N qiong=tS;hj'ong_ qiu=tS;h'iou_ qu=tS;h'y_ quan=tS;h'y&_n que=tS;h'yE_ qun=tS;h'y@_n ran=z.'a_n
rang=z.'A_N rao=z.'Au_ re=z.'o-_ ren=z.'@_n reng=z.'@_N ri=z.'i._ rong=z.'ong_ rou=z.'ou_ ru=z.'u_ rua=z.w'A_
ruan=z.'ua_n rui=z.'uei_ run=z.'u@_n ruo=z.'uo_ sa=s'A_ sai=s'ai_ san=s'a_n sang=s'A_N sao=s'Au_ se=s'o-_ sen=s'@_n
seng=s'@_N sha=s.'A_ shai=s.'ai_ shan=s.'a_n shang=s.'A_N shao=s.'Au_ she=s.'o-_ shei=s.'ei_ shen=s.'@_n sheng=s.'@_N
shi=s.'i._ shou=s.'ou_ shu=s.'u_ shua=s.w'A_ shuai=s.'uai_ shuan=s.'ua_n shuang=s.w'A_N shui=s.w'ei_ shun=s.w'o-_n
shuo=s.w'o_ si=s'i[_ song=s'ong_ sou=s'ou_ su=s'u_ suan=s'ua_n sui=s'uei_ sun=s'u@_n suo=s'uo_ ta=th'A_ tai=th'ai_
tan=th'a_n tang=th'A_N tao=th'Au_ te=th'@_ tei=th'ei_ teng=th'@_N ti=th'i_ tian=th'iE_n tiao=thj'Au_ tie=th'iE_
ting=th'i_N tong=th'ong_ tou=th'ou_ tu=th'u_ tuan=th'ua_n tui=th'uei_ tun=thw'u@_n tuo=th'uo_ wa=w'A_ wai=w'ai_
wan=w'A_n wang=w'A_N wei=w'ei_ wen=w'u@_n weng=w'u@_N wo=w'o_ wu=w'u_ xi=S;'i_ xia=S;'iA_ xian=S;'iE_n xiang=S;'iA_N
xiao=S;j'Au_ xie=S;'iE_ xin=S;'i_n xing=S;'i_N xiong=S;j'ong_ xiu=S;'iou_ xu=S;'y_ xuan=S;'y&_n xue=S;'yE_ xun=S;'y@_n
ya=j'iA_ yan=j'iE_n yang=j'iA_N yao=j'Au_ ye=j'iE_ yi=j'i_ yin=j'i_n ying=j'i_N yo=j'io_ yong=j'ong_ you=j'iou_ yu=j'y_
yuan=j'y&_n yue=j'yE_ yun=j'y@_n za=ts'A_ zai=ts'ai_ zan=ts'a_n zang=ts'A_N zao=ts'Au_ ze=ts'o-_ zei=ts'ei_ zen=ts'@_n
zeng=ts'@_N zha=ts.'A_ zhai=ts.'ai_ zhan=ts.'a_n zhang=ts.'A_N zhao=ts.'Au_ zhe=ts.'o-_ zhei=ts.'ei_ zhen=ts.'@_n
zheng=ts.'@_N zhi=ts.'i._ zhong=ts.'ong_ zhou=ts.'ou_ zhu=ts.'u_ zhua=ts.w'A_ zhuai=ts.'uai_ zhuan=ts.'ua_n
zhuang=ts.w'A_N zhui=ts.'uei_ zhun=ts.'u@_n zhuo=ts.'uo_ zi=ts'i[_ zong=ts'ong_ zou=ts'ou_ zu=ts'u_ zuan=ts'ua_n
zui=ts'uei_ zun=ts'u@_n zuo=ts'uo_ ê='E_`;
