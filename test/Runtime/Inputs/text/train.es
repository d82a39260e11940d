En el principio crió Dios los cielos y la tierra.
Y la tierra estaba desordenada y vacía, y las tinieblas estaban sobre la haz del abismo, y el Espíritu de Dios se movía sobre la haz de las aguas.
Y dijo Dios: Sea la luz: y fué la luz.
Y vió Dios que la luz era buena: y apartó Dios la luz de las tinieblas.
Y llamó Dios á la luz Día, y á las tinieblas llamó Noche: y fué la tarde y la mañana un día.
Y dijo Dios: Haya expansión en medio de las aguas, y separe las aguas de las aguas.
E hizo Dios la expansión, y apartó las aguas que estaban debajo de la expansión, de las aguas que estaban sobre la expansión: y fué así.
Y llamó Dios á la expansión Cielos: y fué la tarde y la mañana el día segundo.
Y dijo Dios: Júntense las aguas que están debajo de los cielos en un lugar, y descúbrase la seca: y fué así.
Y llamó Dios á la seca Tierra, y á la reunión de las aguas llamó Mares: y vió Dios que era bueno.
Y dijo Dios: Produzca la tierra hierba verde, hierba que dé simiente; árbol de fruto que dé fruto según su género, que su simiente esté en él, sobre la tierra: y fué así.
Y produjo la tierra hierba verde, hierba que da simiente según su naturaleza, y árbol que da fruto, cuya simiente está en él, según su género: y vió Dios que era bueno.
Y fué la tarde y la mañana el día tercero.
Y dijo Dios: Sean lumbreras en la expansión de los cielos para apartar el día y la noche: y sean por señales, y para las estaciones, y para días y años;
Y sean por lumbreras en la expansión de los cielos para alumbrar sobre la tierra: y fué así.
E hizo Dios las dos grandes lumbreras; la lumbrera mayor para que señorease en el día, y la lumbrera menor para que señorease en la noche: hizo también las estrellas.
Y púsolas Dios en la expansión de los cielos, para alumbrar sobre la tierra,
Y para señorear en el día y en la noche, y para apartar la luz y las tinieblas: y vió Dios que era bueno.
Y fué la tarde y la mañana el día cuarto.
Y dijo Dios: Produzcan las aguas reptil de ánima viviente, y aves que vuelen sobre la tierra, en la abierta expansión de los cielos.
Y crió Dios las grandes ballenas, y toda cosa viva que anda arrastrando, que las aguas produjeron según su género, y toda ave alada según su especie: y vió Dios que era bueno.
Y Dios los bendijo diciendo: Fructificad y multiplicad, y henchid las aguas en los mares, y las aves se multipliquen en la tierra.
Y fué la tarde y la mañana el día quinto.
Y dijo Dios: Produzca la tierra seres vivientes según su género, bestias y serpientes y animales de la tierra según su especie: y fué así.
E hizo Dios animales de la tierra según su género, y ganado según su género, y todo animal que anda arrastrando sobre la tierra según su especie: y vió Dios que era bueno.
Y dijo Dios: Hagamos al hombre á nuestra imagen, conforme á nuestra semejanza; y señoree en los peces de la mar, y en las aves de los cielos, y en las bestias, y en toda la tierra, y en todo animal que anda arrastrando sobre la tierra.
Y crió Dios al hombre á su imagen, á imagen de Dios lo crió; varón y hembra los crió.
Y los bendijo Dios; y díjoles Dios: Fructificad y multiplicad, y henchid la tierra, y sojuzgadla, y señoread en los peces de la mar, y en las aves de los cielos, y en todas las bestias que se mueven sobre la tierra.
Y dijo Dios: He aquí que os he dado toda hierba que da simiente, que está sobre la haz de toda la tierra; y todo árbol en que hay fruto de árbol que da simiente, seros ha para comer.
Y á toda bestia de la tierra, y á todas las aves de los cielos, y á todo lo que se mueve sobre la tierra, en que hay vida, toda hierba verde les será para comer: y fué así.
Y vió Dios todo lo que había hecho, y he aquí que era bueno en gran manera. Y fué la tarde y la mañana el día sexto.
Y fueron acabados los cielos y la tierra, y todo su ornamento.
Y acabó Dios en el día séptimo su obra que hizo, y reposó el día séptimo de toda su obra que había hecho.
Y bendijo Dios al día séptimo, y santificólo, porque en él reposó de toda su obra que había Dios criado y hecho.
Estos son los orígenes de los cielos y de la tierra cuando fueron criados, el día que Jehová Dios hizo la tierra y los cielos,
Y toda planta del campo antes que fuese en la tierra, y toda hierba del campo antes que naciese: porque aun no había Jehová Dios hecho llover sobre la tierra, ni había hombre para que labrase la tierra;
Mas subía de la tierra un vapor, que regaba toda la faz de la tierra.
Formó, pues, Jehová Dios al hombre del polvo de la tierra, y alentó en su nariz soplo de vida; y fué el hombre en alma viviente.
Y había Jehová Dios plantado un huerto en Edén al oriente, y puso allí al hombre que había formado.
Y había Jehová Dios hecho nacer de la tierra todo árbol delicioso á la vista, y bueno para comer: también el árbol de vida en medio del huerto, y el árbol de ciencia del bien y del mal.
Y salía de Edén un río para regar el huerto, y de allí se repartía en cuatro ramales.
El nombre del uno era Pisón: éste es el que cerca toda la tierra de Havilah, donde hay oro:
Y el oro de aquella tierra es bueno: hay allí también bdelio y piedra cornerina.
El nombre del segundo río es Gihón: éste es el que rodea toda la tierra de Etiopía.
Y el nombre del tercer río es Hiddekel: éste es el que va delante de Asiria. Y el cuarto río es el Eufrates.
Tomó, pues, Jehová Dios al hombre, y le puso en el huerto de Edén, para que lo labrara y lo guardase.
Y mandó Jehová Dios al hombre, diciendo: De todo árbol del huerto comerás;
Mas del árbol de ciencia del bien y del mal no comerás de él; porque el día que de él comieres, morirás.
Y dijo Jehová Dios: No es bueno que el hombre esté solo; haréle ayuda idónea para él.
Formó, pues, Jehová Dios de la tierra toda bestia del campo, y toda ave de los cielos, y trájolas á Adam, para que viese cómo les había de llamar; y todo lo que Adam llamó á los animales vivientes, ese es su nombre.
Y puso Adam nombres á toda bestia y ave de los cielos y á todo animal del campo: mas para Adam no halló ayuda que estuviese idónea para él.
Y Jehová Dios hizo caer sueño sobre Adam, y se quedó dormido: entonces tomó una de sus costillas, y cerró la carne en su lugar;
Y de la costilla que Jehová Dios tomó del hombre, hizo una mujer, y trájola al hombre.
Y dijo Adam: Esto es ahora hueso de mis huesos, y carne de mi carne: ésta será llamada Varona, porque del varón fué tomada.
Por tanto, dejará el hombre á su padre y á su madre, y allegarse ha á su mujer, y serán una sola carne.
Y estaban ambos desnudos, Adam y su mujer, y no se avergonzaban.
Empero la serpiente era astuta, más que todos los animales del campo que Jehová Dios había hecho; la cual dijo á la mujer: ¿Conque Dios os ha dicho: No comáis de todo árbol del huerto?
Y la mujer respondió á la serpiente: Del fruto de los árboles del huerto comemos;
Mas del fruto del árbol que está en medio del huerto dijo Dios: No comeréis de él, ni le tocaréis, porque no muráis.
Entonces la serpiente dijo á la mujer: No moriréis;
Mas sabe Dios que el día que comiereis de él, serán abiertos vuestros ojos, y seréis como dioses sabiendo el bien y el mal.
Y vió la mujer que el árbol era bueno para comer, y que era agradable á los ojos, y árbol codiciable para alcanzar la sabiduría; y tomó de su fruto, y comió; y dió también á su marido, el cual comió así como ella.
Y fueron abiertos los ojos de entrambos, y conocieron que estaban desnudos: entonces cosieron hojas de higuera, y se hicieron delantales.
Y oyeron la voz de Jehová Dios que se paseaba en el huerto al aire del día: y escondióse el hombre y su mujer de la presencia de Jehová Dios entre los árboles del huerto.
Y llamó Jehová Dios al hombre, y le dijo: ¿Dónde estás tú?
Y él respondió: Oí tu voz en el huerto, y tuve miedo, porque estaba desnudo; y escondíme.
Y díjole: ¿Quién te enseñó que estabas desnudo? ¿Has comido del árbol de que yo te mandé no comieses?
Y el hombre respondió: La mujer que me diste por compañera me dió del árbol, y yo comí.
Entonces Jehová Dios dijo á la mujer: ¿Qué es lo que has hecho? Y dijo la mujer: La serpiente me engañó, y comí.
Y Jehová Dios dijo á la serpiente: Por cuanto esto hiciste, maldita serás entre todas las bestias y entre todos los animales del campo; sobre tu pecho andarás, y polvo comerás todos los días de tu vida:
Y enemistad pondré entre ti y la mujer, y entre tu simiente y la simiente suya; ésta te herirá en la cabeza, y tú le herirás en el calcañar.
A la mujer dijo: Multiplicaré en gran manera tus dolores y tus preñeces; con dolor parirás los hijos; y á tu marido será tu deseo, y él se enseñoreará de ti.
Y al hombre dijo: Por cuanto obedeciste á la voz de tu mujer, y comiste del árbol de que te mandé diciendo, No comerás de él; maldita será la tierra por amor de ti; con dolor comerás de ella todos los días de tu vida;
Espinos y cardos te producirá, y comerás hierba del campo;
En el sudor de tu rostro comerás el pan hasta que vuelvas á la tierra; porque de ella fuiste tomado: pues polvo eres, y al polvo serás tornado.
Y llamó el hombre el nombre de su mujer, Eva; por cuanto ella era madre de todos los vivientes.
Y Jehová Dios hizo al hombre y á su mujer túnicas de pieles, y vistiólos.
Y dijo Jehová Dios: He aquí el hombre es como uno de Nos sabiendo el bien y el mal: ahora, pues, porque no alargue su mano, y tome también del árbol de la vida, y coma, y viva para siempre:
Y sacólo Jehová del huerto de Edén, para que labrase la tierra de que fué tomado.
Echó, pues, fuera al hombre, y puso al oriente del huerto de Edén querubines, y una espada encendida que se revolvía á todos lados, para guardar el camino del árbol de la vida.
Y conoció Adam á su mujer Eva, la cual concibió y parió á Caín, y dijo: Adquirido he varón por Jehová.
Y después parió á su hermano Abel. Y fué Abel pastor de ovejas, y Caín fué labrador de la tierra.
Y aconteció andando el tiempo, que Caín trajo del fruto de la tierra una ofrenda á Jehová.
Y Abel trajo también de los primogénitos de sus ovejas, y de su grosura. Y miró Jehová con agrado á Abel y á su ofrenda;
Mas no miró propicio á Caín y á la ofrenda suya. Y ensañóse Caín en gran manera, y decayó su semblante.
Entonces Jehová dijo á Caín: ¿Por qué te has ensañado, y por qué se ha inmutado tu rostro?
Si bien hicieres, ¿no serás ensalzado? y si no hicieres bien, el pecado está á la puerta: con todo esto, á ti será su deseo, y tú te enseñorearás de él.
Y habló Caín á su hermano Abel: y aconteció que estando ellos en el campo, Caín se levantó contra su hermano Abel, y le mató.
Y Jehová dijo á Caín: ¿Dónde está Abel tu hermano? Y él respondió: No sé; ¿soy yo guarda de mi hermano?
Y él le dijo: ¿Qué has hecho? La voz de la sangre de tu hermano clama á mí desde la tierra.
Ahora pues, maldito seas tú de la tierra que abrió su boca para recibir la sangre de tu hermano de tu mano:
Cuando labrares la tierra, no te volverá á dar su fuerza: errante y extranjero serás en la tierra.
Y dijo Caín á Jehová: Grande es mi iniquidad para ser perdonada.
He aquí me echas hoy de la faz de la tierra, y de tu presencia me esconderé; y seré errante y extranjero en la tierra; y sucederá que cualquiera que me hallare, me matará.
Y respondióle Jehová: Cierto que cualquiera que matare á Caín, siete veces será castigado. Entonces Jehová puso señal en Caín, para que no lo hiriese cualquiera que le hallara.
Y salió Caín de delante de Jehová, y habitó en tierra de Nod, al oriente de Edén.
Y conoció Caín á su mujer, la cual concibió y parió á Henoch: y edificó una ciudad, y llamó el nombre de la ciudad del nombre de su hijo, Henoch.
Y á Henoch nació Irad, é Irad engendró á Mehujael, y Mehujael engendró á Methusael, y Methusael engendró á Lamech.
Y tomó para sí Lamech dos mujeres; el nombre de la una fué Ada, y el nombre de la otra Zilla.
Y Ada parió á Jabal, el cual fué padre de los que habitan en tiendas, y crían ganados.
Y el nombre de su hermano fué Jubal, el cual fué padre de todos los que manejan arpa y órgano.
Y Zilla también parió á Tubal-Caín, acicalador de toda obra de metal y de hierro: y la hermana de Tubal-Caín fué Naama.
Y dijo Lamech á sus mujeres: Ada y Zilla, oid mi voz; mujeres de Lamech, escuchad mi dicho: que varón mataré por mi herida, y mancebo por mi golpe:
Si siete veces será vengado Caín, Lamech en verdad setenta veces siete lo será.
Y conoció de nuevo Adam á su mujer, la cual parió un hijo, y llamó su nombre Seth: Porque Dios (dijo ella) me ha sustituído otra simiente en lugar de Abel, á quien mató Caín.
Y á Seth también le nació un hijo, y llamó su nombre Enós. Entonces los hombres comenzaron á llamarse del nombre de Jehová.
Este es el libro de las generaciones de Adam. El día en que crió Dios al hombre, á la semejanza de Dios lo hizo;
Varón y hembra los crió; y los bendijo, y llamó el nombre de ellos Adam, el día en que fueron criados.
Y vivió Adam ciento y treinta años, y engendró un hijo á su semejanza, conforme á su imagen, y llamó su nombre Seth.
Y fueron los días de Adam, después que engendró á Seth, ochocientos años: y engendró hijos é hijas.
Y fueron todos los días que vivió Adam novecientos y treinta años, y murió.
Y vivió Seth ciento y cinco años, y engendró á Enós.
Y vivió Seth, después que engendró á Enós, ochocientos y siete años: y engendró hijos é hijas.
Y fueron todos los días de Seth novecientos y doce años; y murió.
Y vivió Enós noventa años, y engendró á Cainán.
Y vivió Enós después que engendró á Cainán, ochocientos y quince años: y engendró hijos é hijas.
Y fueron todos los días de Enós novecientos y cinco años; y murió.
Y vivió Cainán setenta años, y engendró á Mahalaleel.
Y vivió Cainán, después que engendró á Mahalaleel, ochocientos y cuarenta años: y engendró hijos é hijas.
Y fueron todos los días de Cainán novecientos y diez años; y murió.
